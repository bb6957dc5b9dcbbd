//! Property tests of the rules core (proptest).

use pahtum::{Bitboard, Board, FastRng, HoleSetup, Komi, Player, Position, Rules, Square, score};
use proptest::prelude::*;

/// A random board of side 3..=8 from a seed: holes, white and black stones.
fn board_from(size: u8, seed: u64) -> Board {
    let mut rng = FastRng::new(seed);
    let mut b = Board {
        size,
        holes: Bitboard::EMPTY,
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
    };
    for sq in Bitboard::full(size) {
        match rng.below(4) {
            0 => b.holes.insert(sq),
            1 => b.white.insert(sq),
            2 => b.black.insert(sq),
            _ => {}
        }
    }
    b
}

/// A position part-way through a random game.
fn random_position(size: u8, holes: u32, pie: bool, seed: u64, plies: u32) -> Position {
    let mut rng = FastRng::new(seed);
    let rules = Rules {
        size,
        holes: HoleSetup::Random(holes),
        pie,
        komi: Komi::ZERO,
    };
    let mut pos = rules.new_game(&mut rng).expect("valid rules");
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        let free = pos.legal_moves();
        let sq = free.nth(rng.below(free.count())).expect("free square");
        pos.play(sq);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn scores_invariant_under_the_8_symmetries(size in 3u8..=8, seed: u64) {
        let b = board_from(size, seed);
        for stones in [b.white, b.black] {
            let s = score(stones);
            for sym in 0..8 {
                prop_assert_eq!(score(stones.transform(sym, size)), s);
            }
        }
    }

    #[test]
    fn incremental_gains_equal_rescoring_along_games(size in 3u8..=8, holes in 0u32..6, seed: u64) {
        let mut rng = FastRng::new(seed);
        let mut pos = random_position(size, holes, false, seed, 0);
        let mut totals = pos.scores();
        while !pos.is_game_over() {
            let free = pos.legal_moves();
            let sq = free.nth(rng.below(free.count())).expect("free square");
            let mover = pos.turn();
            let g = pos.gain(sq);
            pos.play(sq);
            totals[mover] += g;
            prop_assert_eq!(totals, pos.scores());
        }
    }

    #[test]
    fn undo_restores_position_and_hash(size in 3u8..=8, holes in 0u32..6, pie: bool, seed: u64, plies in 0u32..20) {
        let mut pos = random_position(size, holes, pie, seed, plies);
        let before = pos;
        let mut rng = FastRng::new(seed ^ 1);
        let mut played: Vec<Square> = Vec::new();
        let mut swapped = false;
        for _ in 0..rng.below(12) {
            if pos.is_game_over() { break; }
            if pos.can_swap() && rng.below(2) == 0 {
                pos.try_swap().expect("swap allowed");
                swapped = true;
                break;
            }
            let free = pos.legal_moves();
            let sq = free.nth(rng.below(free.count())).expect("free");
            pos.play(sq);
            played.push(sq);
        }
        if swapped { pos.undo_swap(); }
        for sq in played.into_iter().rev() {
            pos.undo_unchecked(sq);
        }
        prop_assert_eq!(pos, before);
        prop_assert_eq!(pos.hash(), before.hash());
    }

    #[test]
    fn hash_is_a_function_of_the_board(size in 3u8..=7, seed: u64, plies in 0u32..12) {
        // Reaching the same stones by another move order gives the same hash.
        let pos = random_position(size, 1, false, seed, plies);
        let rebuilt = Position::with_stones(size, pos.holes(), pos.stones(Player::White), pos.stones(Player::Black), false, Komi::ZERO).expect("legal counts");
        prop_assert_eq!(rebuilt.hash(), pos.hash());
    }

    #[test]
    fn random_playouts_fill_the_board_evenly(size in 3u8..=8, holes in 0u32..9, seed: u64, plies in 0u32..10) {
        let pos = random_position(size, holes, false, seed, plies);
        let mut rng = FastRng::new(seed);
        let end = pos.random_fill(&mut rng);
        prop_assert!(end.is_game_over());
        let (w, b) = (end.stones(Player::White).count(), end.stones(Player::Black).count());
        let squares = (size as u32).pow(2) - pos.holes().count();
        // White moves first, so White has one more stone exactly when the free squares are odd.
        prop_assert_eq!(w, b + squares % 2);
        prop_assert!(pos.stones(Player::White) & !end.stones(Player::White) == Bitboard::EMPTY);
        let m = pos.random_playout(&mut rng);
        prop_assert_eq!(m % 2, 0);
    }
}

/// The split shortcut must give the same result distribution as playing
/// uniformly random moves one by one: compare White's win rate on a small
/// board where both are estimated precisely.
#[test]
fn random_split_matches_move_by_move_playouts() {
    let pos = random_position(4, 2, false, 11, 3);
    let n = 200_000;
    let mut rng = FastRng::new(5);
    let split_wins = (0..n).filter(|_| pos.random_playout(&mut rng) > 0).count() as f64 / n as f64;
    let mut slow_wins = 0;
    for _ in 0..n {
        let mut p = pos;
        while !p.is_game_over() {
            let free = p.legal_moves();
            p.play_unchecked(free.nth(rng.below(free.count())).expect("free"));
        }
        slow_wins += (p.margin_halves() > 0) as usize;
    }
    let slow = slow_wins as f64 / n as f64;
    // Standard error of the difference is about 0.0016 here; allow 5 of them.
    assert!(
        (split_wins - slow).abs() < 0.008,
        "split {split_wins} vs moves {slow}"
    );
}
