//! The policy-value network inside `mcts` (`prior=pv`, `mix=`): one
//! evaluation per node, made when the node is expanded, that gives its
//! children their priors and the node its value.
//!
//! Why at expansion only: an evaluation costs as much as dozens of
//! iterations, so it must be paid once per node, not once per visit; the
//! expansion threshold (`expand=`) is the knob that spaces evaluations
//! out, as AlphaGo's expansion threshold did (Silver et al. 2016).
//!
//! The value is stored in the node's minimax field (`mix=` and
//! `minimax=` exclude each other) as White's reward in `[0, 1]`, the
//! network's `[-1, 1]` for the side to move turned into the per-colour
//! reward convention of the backup. Threads that race to expand one node
//! compute the same value from the same position and store the same bits,
//! before the node is published, so whoever reads it later reads it
//! written. Each thread evaluates with its own buffers and the network is
//! shared read-only, so every thread count works: a shared tree shares the
//! evaluations through its nodes, and root parallelism stays reproducible.
//!
//! Why the parent's value: a simulated leaf has fewer than `expand=`
//! visits and no evaluation of its own (one per leaf would cost an
//! evaluation per iteration), while its parent is expanded, hence
//! evaluated; it is the nearest evaluated node on the path.

use super::{SearchContext, Worker};
use crate::bot::mcts::config::Prior;
use crate::bot::mcts::tree::{Node, REWARD_ONE, TreeView};
use crate::game::player::{ByPlayer, Player};
use crate::game::position::Position;
use crate::net::{PvNet, Scratch, legal_priors, swap_index};

/// A worker's buffers for network evaluations, sized at the first one.
#[derive(Debug, Default)]
pub(super) struct PvBuffers {
    scratch: Scratch,
    logits: Vec<f32>,
    /// `(policy index, probability)` of the legal moves of the position
    /// evaluated last, when its priors were asked for.
    pub(super) priors: Vec<(usize, f32)>,
}

impl Worker {
    /// Evaluates `pos`, the position of LEAF `node` about to be expanded,
    /// when the network is on: the priors for `child_moves` (with
    /// `prior=pv`, unless `plain`: the moves are not ranked there) and the
    /// value into `node` (with `mix=`). Returns whether priors were made.
    ///
    /// Kept out of line and cold: the search loop without the network
    /// then carries only the test of `s.pv` (with random playouts an
    /// iteration is a fraction of a microsecond, and its code's layout
    /// shows in its speed).
    #[cold]
    #[inline(never)]
    pub(super) fn evaluate_pv<V: TreeView>(
        &mut self,
        s: &SearchContext<'_, V>,
        node: &Node,
        pos: &Position,
        plain: bool,
    ) -> bool {
        let Some(net) = s.pv else {
            return false;
        };
        let want_priors = s.cfg.prior == Prior::Pv && !plain;
        let mix = s.cfg.mix > 0.0;
        if !want_priors && !mix {
            return false;
        }
        let v = self.pv.evaluate(net, pos, want_priors);
        if mix {
            let white = if pos.turn() == Player::White { v } else { -v };
            let _ = s.tree.set_minimax(node, (1.0 + white) / 2.0);
        }
        want_priors
    }
}

impl PvBuffers {
    /// The network's value of `pos` for the side to move, and with
    /// `priors` its legal moves' probabilities in `self.priors`.
    fn evaluate(&mut self, net: &PvNet, pos: &Position, priors: bool) -> f32 {
        let width = swap_index(pos.size()) + 1;
        if self.logits.len() != width {
            self.logits.resize(width, 0.0);
        }
        let mut value = [0.0f32];
        net.evaluate_slice(
            std::slice::from_ref(pos),
            &mut self.scratch,
            &mut self.logits,
            &mut value,
            0.0,
        );
        if priors {
            legal_priors(pos, &self.logits, &mut self.priors);
        }
        value[0]
    }
}

/// The rewards a simulated leaf backs up with `mix=`: the playout's
/// `reward` and the network's value of the leaf's parent `parent` (White's
/// reward, stored by [`Worker::evaluate_pv`]), weighted `1 - mix` and
/// `mix`. Out of line and cold, as [`Worker::evaluate_pv`].
#[cold]
#[inline(never)]
pub(super) fn mixed(reward: ByPlayer<u64>, parent: &Node, mix: f32) -> ByPlayer<u64> {
    let net = parent.minimax().clamp(0.0, 1.0) * REWARD_ONE as f32;
    let w = (1.0 - mix) * reward[Player::White] as f32 + mix * net;
    let w = (w.round() as u64).min(REWARD_ONE);
    ByPlayer::new(w, REWARD_ONE - w)
}

/// The network inside the search: what it stores, what it changes, and
/// that the search stays legal and reproducible with it.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::mcts::config::{MctsConfig, Parallel};
    use crate::bot::mcts::tree::OwnedTree;
    use crate::bot::mcts::{MctsBot, Tree};
    use crate::bot::spec::{BotSpec, Budget, Params};
    use crate::game::outcome::Move;
    use crate::game::record::Game;
    use crate::game::rules::Rules;

    fn cfg(spec: &str) -> MctsConfig {
        let spec = spec.parse::<BotSpec>().expect("spec");
        MctsConfig::from_params(&Params::new(&spec)).expect("config")
    }

    fn start(seed: u64) -> Position {
        Rules::default()
            .new_game(&mut crate::game::rules::layout_rng(seed))
            .expect("game")
    }

    /// Root children's (move, visits), in tree order.
    fn root_visits(tree: &Tree) -> Vec<(Move, u32)> {
        tree.nodes(tree.root().children())
            .iter()
            .map(|n| (n.mv(), n.visits()))
            .collect()
    }

    fn searched(spec: &str, pos: Position, seed: u64) -> (Move, Vec<(Move, u32)>) {
        let mut bot = MctsBot::new("t", cfg(spec), seed);
        let mv = bot.search(&Game::new(pos)).expect("move");
        (mv, root_visits(&bot.trees[0]))
    }

    #[test]
    fn mixed_rewards_weigh_the_playout_and_the_parents_value() {
        let mut tree = Tree::new();
        tree.reset(4);
        let w = OwnedTree::new(&mut tree);
        // The network gives White 1/4 of the reward: v = -1/2 for White.
        assert!(w.set_minimax(w.root(), 0.25));
        let parent = w.root();
        let won = ByPlayer::new(REWARD_ONE, 0);
        let r = mixed(won, parent, 0.5);
        let want = (0.625 * REWARD_ONE as f32) as u64;
        assert_eq!(
            (r[Player::White], r[Player::Black]),
            (want, REWARD_ONE - want)
        );
        assert_eq!(mixed(won, parent, 1.0)[Player::White], REWARD_ONE / 4);
        let lost = ByPlayer::new(0, REWARD_ONE);
        assert_eq!(mixed(lost, parent, 0.0)[Player::Black], REWARD_ONE);
    }

    /// The root's stored value is the network's for the side to move,
    /// turned into White's reward, and the root's children carry its
    /// policy, best first, the best at 1.
    #[test]
    fn the_root_holds_the_networks_value_and_policy() {
        let mut pos = start(3);
        pos.play(pos.empty().next().expect("free"));
        assert_eq!(pos.turn(), Player::Black);
        let net = PvNet::builtin();
        let e = net.evaluate(&pos, &mut Scratch::default());
        let mut bot = MctsBot::new("t", cfg("mcts:prior=pv,mix=0.5,iters=50"), 1);
        bot.search(&Game::new(pos)).expect("move");
        let root = bot.trees[0].root();
        assert_eq!(root.minimax(), (1.0 - e.value) / 2.0);
        let mut priors = Vec::new();
        legal_priors(&pos, &e.logits, &mut priors);
        let best = priors.iter().map(|p| p.1).fold(0.0, f32::max);
        let kids = bot.trees[0].nodes(root.children());
        assert_eq!(kids.len(), priors.len());
        assert_eq!(kids[0].prior(), 1.0);
        for w in kids.windows(2) {
            assert!(w[0].prior() >= w[1].prior());
        }
        for k in kids {
            let Move::Place(sq) = k.mv() else {
                panic!("a swap without the pie rule")
            };
            let i = crate::net::square_index(sq, pos.size());
            let p = priors.iter().find(|p| p.0 == i).expect("legal").1;
            assert_eq!(k.prior(), p / best);
        }
    }

    /// The network's policy and value change what the search visits, and
    /// a seed gives the same search again, with one thread and with one
    /// tree per thread.
    #[test]
    fn the_network_changes_the_search_reproducibly() {
        let pos = start(5);
        let plain = searched("mcts:iters=400,expand=4,prior=prune,mix=0", pos, 9);
        let pv = searched("mcts:iters=400,expand=4,prior=pv,mix=0", pos, 9);
        let mix = searched("mcts:iters=400,expand=4,prior=pv,mix=0.5", pos, 9);
        assert_ne!(plain.1, pv.1);
        assert_ne!(pv.1, mix.1);
        assert_eq!(
            mix,
            searched("mcts:iters=400,expand=4,prior=pv,mix=0.5", pos, 9)
        );
        let spec = "mcts:iters=400,expand=4,prior=pv,mix=0.5,threads=2,parallel=root";
        assert_eq!(cfg(spec).parallel, Parallel::Root);
        assert_eq!(searched(spec, pos, 9), searched(spec, pos, 9));
    }

    /// Whole games with the network on are legal, with one thread and
    /// two sharing a tree, with and without the pie rule.
    #[test]
    fn whole_games_with_the_network_are_legal() {
        for (spec, pie) in [
            ("mcts:prior=pv,mix=0.5,iters=150", false),
            ("mcts:prior=pv,mix=0.5,iters=150,threads=2", true),
        ] {
            let rules = Rules {
                pie,
                ..Rules::default()
            };
            let pos = rules
                .new_game(&mut crate::game::rules::layout_rng(2))
                .expect("game");
            let mut game = Game::new(pos);
            let mut bot = MctsBot::new("t", cfg(spec), 4);
            assert_eq!(bot.config().budget, Budget::Iters(150));
            while !game.position().is_game_over() {
                let mv = bot.search(&game).expect("move");
                game.try_play(mv).expect("legal");
            }
        }
    }
}
