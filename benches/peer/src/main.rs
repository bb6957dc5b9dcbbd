//! Plain UCT with uniformly random playouts on the `mcts` crate, from
//! `pahtum bench`'s position: the yardstick of `mcts_iters_per_s_t1`.
//!
//! Both searches do the same work per iteration: descend by UCT, expand
//! a leaf's children, play one uniformly random playout with pahtum's own
//! playout code and back up a win/draw/loss reward. The figure is
//! iterations a second of one thread over `SEARCHES` searches of
//! `ITERS` iterations each, after an untimed one, as `pahtum bench` times
//! its own.
//!
//! Usage: `pahtum-peer [SECONDS]` (default 1): prints
//! `peer_mcts_iters_per_s_t1=N`.

use std::time::Instant;

use mcts::tree_policy::UCTPolicy;
use mcts::{Evaluator, GameState, MCTS, MCTSManager, SearchHandle};
use pahtum::arena::bench::bench_position;
use pahtum::{FastRng, Player, Position, Square};

/// Searches timed per figure, as `pahtum bench` times its own.
const SEARCHES: u32 = 3;

/// The game state: a pahtum position.
#[derive(Clone)]
struct State(Position);

impl GameState for State {
    type Move = Square;
    type Player = Player;
    type MoveList = Vec<Square>;

    fn current_player(&self) -> Player {
        self.0.turn()
    }

    fn available_moves(&self) -> Vec<Square> {
        if self.0.is_game_over() {
            Vec::new()
        } else {
            self.0.legal_moves().collect()
        }
    }

    fn make_move(&mut self, sq: &Square) {
        self.0.play_unchecked(*sq);
    }
}

/// Evaluates a new leaf by one uniformly random playout: White's result
/// as 2 (win), 1 (draw) or 0 (loss).
struct Playout;

impl Evaluator<Uct> for Playout {
    type StateEvaluation = i64;

    fn evaluate_new_state(
        &self,
        state: &State,
        moves: &Vec<Square>,
        handle: Option<SearchHandle<Uct>>,
    ) -> (Vec<()>, i64) {
        let margin = match handle {
            Some(mut h) => state.0.random_playout(&mut h.thread_data().extra_data.0),
            None => state.0.random_playout(&mut FastRng::new(0)),
        };
        (vec![(); moves.len()], 1 + margin.signum() as i64)
    }

    fn evaluate_existing_state(&self, _: &State, e: &i64, _: SearchHandle<Uct>) -> i64 {
        *e
    }

    fn interpret_evaluation_for_player(&self, e: &i64, p: &Player) -> i64 {
        match p {
            Player::White => *e,
            Player::Black => 2 - *e,
        }
    }
}

/// Each search thread's playout stream.
struct Rng(FastRng);

impl Default for Rng {
    fn default() -> Rng {
        Rng(FastRng::new(3))
    }
}

/// The search: UCT, no transposition table, expansion at the first visit
/// (the crate's only setting).
#[derive(Default)]
struct Uct;

impl MCTS for Uct {
    type State = State;
    type Eval = Playout;
    type NodeData = ();
    type ExtraThreadData = Rng;
    type TreePolicy = UCTPolicy;
    type TranspositionTable = ();
}

/// One search of `iters` iterations from `pos`.
fn search(pos: &Position, iters: u64) -> Option<Square> {
    // The crate's UCT term is `c * 2 * sqrt(ln N / n)` over rewards of
    // 0..=2: c = 0.2 is pahtum's `c=0.2` over rewards of 0..=1.
    let mut m = MCTSManager::new(State(*pos), Uct, Playout, UCTPolicy::new(0.2), ());
    m.playout_n(iters);
    m.best_move()
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("SECONDS is a number"))
        .unwrap_or(1.0);
    // The budget rule of `pahtum bench`.
    let iters = ((seconds * 1e6) as u64).clamp(20_000, 20_000_000);
    let pos = bench_position();
    std::hint::black_box(search(&pos, iters));
    let t0 = Instant::now();
    for _ in 0..SEARCHES {
        std::hint::black_box(search(&pos, iters));
    }
    let rate = (SEARCHES as u64 * iters) as f64 / t0.elapsed().as_secs_f64();
    println!("peer_mcts_iters_per_s_t1={rate:.0}");
}
