//! Every bot returns a legal move (pie-rule reply included) on random
//! positions of every size and hole count, and replays a game exactly from
//! the same seed.

use pahtum::arena::game::play_game;
use pahtum::{Bitboard, FastRng, Game, Komi, Move, Position, Rules, builtin_catalog};
use proptest::prelude::*;

/// Every built-in bot that needs no terminal, with small budgets.
const SPECS: &[&str] = &[
    "random",
    "greedy",
    "greedy:block=0",
    "heuristic",
    "heuristic:decay=0.5,reach=8,defence=0",
    "learned",
    "flatmc:playouts=40",
    "flatmc:playouts=40,rollout=heuristic,eps=0.5",
    "mcts:iters=64",
    "mcts:iters=64,rollout=heuristic,prior=prune,k=4",
    "mcts:iters=64,rollout=net",
    "mcts:iters=64,rollout=value,rave=rave",
    "alphabeta:depth=2,solve=6",
    "alphabeta:nodes=3000,solve=10",
];

/// A position on a `size` board with `holes` random holes, `plies` random
/// stones (fewer if the board fills up) and the pie rule as given.
fn position(size: u8, holes: u32, plies: u32, pie: bool, seed: u64) -> Position {
    let mut rng = FastRng::new(seed);
    let rules = Rules {
        size,
        holes: pahtum::HoleSetup::Random(holes),
        pie,
        komi: Komi::ZERO,
    };
    let mut pos = rules.new_game(&mut rng).expect("valid rules");
    for _ in 0..plies {
        let free = pos.empty();
        if free.count() <= 1 {
            break;
        }
        let sq = free.nth(rng.below(free.count())).expect("free square");
        pos.play(sq);
    }
    pos
}

fn check_legal(spec: &str, pos: &Position, seed: u64) -> Result<(), TestCaseError> {
    let catalog = builtin_catalog();
    let parsed = catalog.parse(spec).expect("valid spec");
    let mut bot = catalog.build(&parsed, seed).expect("bot");
    let mv = bot.select_move(&Game::new(*pos));
    match mv {
        Ok(Move::Place(sq)) => prop_assert!(pos.empty().contains(sq), "{spec}: {sq} on\n{pos}"),
        Ok(Move::Swap) => prop_assert!(pos.can_swap(), "{spec}: swap on\n{pos}"),
        Err(e) => prop_assert!(false, "{spec}: fault {e} on\n{pos}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_bot_moves_legally(
        size in 3u8..=8,
        hole_frac in 0.0f64..1.0,
        ply_frac in 0.0f64..1.0,
        pie in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let cells = size as u32 * size as u32;
        let holes = ((cells - 1) as f64 * hole_frac) as u32;
        let plies = ((cells - holes) as f64 * ply_frac) as u32;
        let pos = position(size, holes, plies, pie, seed);
        for spec in SPECS {
            check_legal(spec, &pos, seed)?;
        }
    }

    #[test]
    fn every_bot_answers_the_pie_offer(
        size in 3u8..=8,
        holes in 0u32..6,
        seed in any::<u64>(),
    ) {
        let holes = holes.min(size as u32 * size as u32 - 2);
        let pos = position(size, holes, 1, true, seed);
        prop_assert!(pos.can_swap());
        for spec in SPECS {
            check_legal(spec, &pos, seed)?;
        }
    }
}

#[test]
fn a_single_free_square_is_played() {
    let holes = Bitboard::full(3) & !Bitboard::from_square("b2".parse().expect("sq"));
    let pos = Position::new(3, holes, false, Komi::ZERO).expect("pos");
    for spec in SPECS {
        check_legal(spec, &pos, 1).expect("legal");
    }
}

#[test]
fn same_seed_replays_the_same_game() {
    let catalog = builtin_catalog();
    for (i, size) in [4u8, 7].into_iter().enumerate() {
        let rules = Rules {
            size,
            pie: i == 0,
            ..Rules::default()
        };
        let start = rules.new_game(&mut FastRng::new(9)).expect("rules");
        for spec in SPECS {
            let parsed = catalog.parse(spec).expect("spec");
            let game = |seed: u64| {
                let mut a = catalog.build(&parsed, seed).expect("bot");
                let mut b = catalog.build(&parsed, seed ^ 1).expect("bot");
                play_game(Game::new(start), &mut *a, &mut *b, [None; 2], |_| {})
                    .game
                    .moves_text()
            };
            let first = game(5);
            assert_eq!(first, game(5), "{spec} on {size}x{size}");
            if spec.starts_with("random") || spec.starts_with("flatmc") {
                // Bots that sample at every move depend on their seed (the
                // one-ply bots only break ties with it, and mcts may solve
                // a small board exactly).
                assert_ne!(first, game(6), "{spec} ignores its seed");
            }
        }
    }
}
