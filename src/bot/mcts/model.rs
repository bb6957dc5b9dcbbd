//! The opponent model (`model=`): whether the search models the opponent
//! as `heuristic` this move.

use super::config::{MctsConfig, Model};
use crate::eval::MoveValuer;
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::record::Game;

/// The colour the search models as `heuristic` (`model=`): the
/// opponent's, with `model=on`, or with `model=auto` while each of its
/// placements so far, at least `model_after`, was of best
/// line-potential value by the engine's own weights. Never under the pie
/// rule, where the opening and the swap follow other rules and the swap
/// changes who owns a colour.
pub(super) fn modelled_colour(game: &Game, cfg: &MctsConfig) -> Option<Player> {
    let start = game.start();
    if start.pie() {
        return None;
    }
    let opponent = !game.position().turn();
    match cfg.model {
        Model::Off => None,
        Model::On => Some(opponent),
        Model::Auto => {
            let valuer = MoveValuer::with_table(&cfg.weights, start.size());
            let mut pos = *start;
            let mut agreed = 0u32;
            for &mv in game.moves() {
                let Move::Place(sq) = mv else {
                    return None;
                };
                if pos.turn() == opponent {
                    let played = valuer.value(&pos, sq);
                    if pos.empty().any(|s| valuer.value(&pos, s) > played) {
                        return None;
                    }
                    agreed += 1;
                }
                pos.play(sq);
            }
            (agreed >= cfg.model_after).then_some(opponent)
        }
    }
}

/// The opponent model (`model=`): when it is on, and what the tree then
/// holds at the opponent's nodes.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::mcts::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;
    use crate::game::rules::Rules;
    use crate::game::square::Square;

    fn start(seed: u64, pie: bool) -> Position {
        let rules = Rules {
            pie,
            ..Rules::default()
        };
        rules
            .new_game(&mut crate::game::rules::layout_rng(seed))
            .unwrap()
    }

    /// A square of best value for the side to move, and one of worse
    /// value.
    fn best_and_worse(pos: &Position, valuer: &MoveValuer) -> (Square, Square) {
        let best = pos.empty().max_by_key(|&s| valuer.value(pos, s)).unwrap();
        let worse = pos
            .empty()
            .find(|&s| valuer.value(pos, s) < valuer.value(pos, best))
            .unwrap();
        (best, worse)
    }

    fn cfg(model: Model) -> MctsConfig {
        MctsConfig {
            model,
            ..MctsConfig::default()
        }
    }

    /// Plays `n` pairs of moves: the first mover (the modelled opponent of
    /// the engine that moves next) plays a best move each time except at
    /// `deviate`, the other any best move.
    fn game(pos: Position, n: usize, deviate: Option<usize>) -> Game {
        let valuer = MoveValuer::with_table(&EvalWeights::default(), pos.size());
        let mut g = Game::new(pos);
        for i in 0..n {
            let (best, worse) = best_and_worse(g.position(), &valuer);
            let mv = if deviate == Some(i) { worse } else { best };
            g.try_play(Move::Place(mv)).unwrap();
            let (best, _) = best_and_worse(g.position(), &valuer);
            g.try_play(Move::Place(best)).unwrap();
        }
        let (best, _) = best_and_worse(g.position(), &valuer);
        g.try_play(Move::Place(best)).unwrap();
        g
    }

    #[test]
    fn auto_models_an_opponent_that_always_played_the_best_value() {
        let pos = start(4, false);
        let g = game(pos, 3, None);
        let opp = Some(!g.position().turn());
        assert_eq!(modelled_colour(&g, &cfg(Model::Auto)), opp);
        assert_eq!(modelled_colour(&g, &cfg(Model::On)), opp);
        assert_eq!(modelled_colour(&g, &cfg(Model::Off)), None);
        // Exactly `model_after` placements, and one too few.
        let g = game(pos, 1, None);
        assert_eq!(modelled_colour(&g, &cfg(Model::Auto)), opp);
        let g = game(pos, 0, None);
        assert_eq!(modelled_colour(&g, &cfg(Model::Auto)), None);
        assert_eq!(modelled_colour(&g, &cfg(Model::On)), opp);
    }

    #[test]
    fn one_other_move_turns_auto_off_for_the_game() {
        let pos = start(4, false);
        for deviate in 0..4 {
            let g = game(pos, 4, Some(deviate));
            assert_eq!(modelled_colour(&g, &cfg(Model::Auto)), None, "{deviate}");
        }
        // Not under the pie rule.
        let g = game(start(4, true), 3, None);
        assert_eq!(modelled_colour(&g, &cfg(Model::On)), None);
    }

    /// At the opponent's nodes the tree holds exactly its moves of best
    /// value, every one of them when several tie (the empty board without
    /// holes is symmetric, so its replies tie), with one thread and in
    /// every tree of root parallelism.
    #[test]
    fn modelled_nodes_hold_only_the_best_valued_moves() {
        let open = Position::new(7, Bitboard::EMPTY, false, Komi::ZERO).unwrap();
        let mut tied = 0;
        for pos in [start(6, false), open] {
            for (threads, parallel) in [(1, Parallel::Tree), (2, Parallel::Root)] {
                let cfg = MctsConfig {
                    threads,
                    parallel,
                    ..cfg(Model::On)
                };
                let mut bot = MctsBot::new("t", cfg, 1);
                bot.search(&Game::new(pos)).unwrap();
                for tree in &bot.trees {
                    tied += check_modelled(tree, pos);
                }
            }
        }
        assert!(tied > 0, "no tie was checked");
    }

    /// Checks the expanded children of the root of `tree` (position `pos`)
    /// and returns how many held more than one move.
    fn check_modelled(tree: &Tree, pos: Position) -> u32 {
        let valuer = MoveValuer::with_table(&EvalWeights::default(), pos.size());
        let children = tree.root().children();
        assert_eq!(
            children.len(),
            pos.empty().count(),
            "the engine's own moves"
        );
        let (mut checked, mut tied) = (0, 0);
        for node in tree.nodes(children) {
            if node.state() != tree::NodeState::Expanded {
                continue;
            }
            let Move::Place(sq) = node.mv() else {
                panic!("a swap without the pie rule")
            };
            let mut p = pos;
            p.play(sq);
            let top = p.empty().map(|s| valuer.value(&p, s)).max().unwrap();
            let want: Vec<Move> = p
                .empty()
                .filter(|&s| valuer.value(&p, s) == top)
                .map(Move::Place)
                .collect();
            let grandchildren = node.children();
            let got: Vec<Move> = tree.nodes(grandchildren).iter().map(|g| g.mv()).collect();
            assert_eq!(got, want, "after {sq}");
            checked += 1;
            tied += u32::from(grandchildren.len() > 1);
        }
        assert!(checked > 1);
        tied
    }

    /// One bot that plays both colours (as the engine server's does) does
    /// not keep a tree that modelled the colour it now plays.
    #[test]
    fn a_tree_that_modelled_a_colour_is_not_kept_for_that_colour() {
        let mut game = Game::new(start(6, false));
        let mut bot = MctsBot::new("t", cfg(Model::On), 1);
        for _ in 0..3 {
            let mv = bot.search(&game).unwrap();
            game.try_play(mv).unwrap();
            bot.search(&game).unwrap();
            let n = bot.trees[0].root().children().len();
            assert_eq!(n, game.position().empty().count());
            assert!(!bot.report().unwrap().reused);
            let mv = bot.report().unwrap().pv[0];
            game.try_play(mv).unwrap();
        }
    }
}
