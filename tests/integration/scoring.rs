//! The fast scorer against a plain reference, golden boards, and the
//! incremental gain against rescoring.

use pahtum::game::text::board_to_text;
use pahtum::{Bitboard, Board, FastRng, RUN_POINTS, Square, gain, parse_boards, score};

/// The reference: walk every row and column, measure each maximal run of
/// `stones`, add its points. Deliberately the obvious algorithm.
fn score_naive(stones: Bitboard, size: u8) -> u32 {
    let points = |len: u32| -> u32 {
        match len {
            0..=2 => 0,
            n => (1u32 << n) - n - 2,
        }
    };
    let mut total = 0;
    for line in 0..size {
        for across in [true, false] {
            let mut run = 0;
            for i in 0..size {
                let sq = if across {
                    Square::new(i, line)
                } else {
                    Square::new(line, i)
                };
                if stones.contains(sq) {
                    run += 1;
                } else {
                    total += points(run);
                    run = 0;
                }
            }
            total += points(run);
        }
    }
    total
}

fn random_board(rng: &mut FastRng, size: u8, full: bool) -> Board {
    let mut b = Board {
        size,
        holes: Bitboard::EMPTY,
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
    };
    // Vary the density so long runs and empty boards both occur.
    let hole_pct = rng.below(20);
    let empty_pct = if full { 0 } else { rng.below(100) };
    let white_pct = 20 + rng.below(60);
    for sq in Bitboard::full(size) {
        let r = rng.below(100);
        if r < hole_pct {
            b.holes.insert(sq);
        } else if rng.below(100) < empty_pct {
        } else if rng.below(100) < white_pct {
            b.white.insert(sq);
        } else {
            b.black.insert(sq);
        }
    }
    b
}

#[test]
fn fast_equals_naive_on_random_boards_of_every_size() {
    let mut rng = FastRng::new(2024);
    for size in 3..=8u8 {
        for i in 0..100_000 {
            let b = random_board(&mut rng, size, i % 2 == 0);
            for stones in [b.white, b.black] {
                assert_eq!(
                    score(stones),
                    score_naive(stones, size),
                    "size {size}\n{}",
                    board_to_text(&b)
                );
            }
        }
    }
}

#[test]
fn hand_worked_answers() {
    // Every run length, across and down.
    for len in 0..=7u8 {
        let row: Bitboard = (0..len).map(|c| Square::new(c, 3)).collect();
        let col: Bitboard = (0..len).map(|r| Square::new(2, r)).collect();
        assert_eq!(score(row), RUN_POINTS[len as usize]);
        assert_eq!(score(col), RUN_POINTS[len as usize]);
    }
    let cases = [
        // WWW#WWW: a hole breaks the run, 3 + 3.
        (
            "WWW#WWW\n.......\n.......\n.......\n.......\n.......\n.......\n",
            6,
            0,
        ),
        // An opponent stone breaks it.
        (
            "WWWBWWW\n.......\n.......\n.......\n.......\n.......\n.......\n",
            6,
            0,
        ),
        // An empty square breaks it (partial boards count as they stand).
        (
            "WWW.WWW\n.......\n.......\n.......\n.......\n.......\n.......\n",
            6,
            0,
        ),
        // The edge ends a run: a full row and a full column, sharing a1.
        (
            "W......\nW......\nW......\nW......\nW......\nW......\nWWWWWWW\n",
            238,
            0,
        ),
        // docs/RULES.md: White a run of 3 and one of 4 (13); Black two runs of 2 and one of 3 (3).
        (
            "WWW....\n.......\n...WWWW\n.......\nBB.BB..\n.......\nBBB....\n",
            13,
            3,
        ),
        // A stone counted across and down: an L of 3 + 3 sharing the corner.
        ("WWW\nW..\nW..\n", 6, 0),
        // 8x8: a full row scores 246.
        (
            "BBBBBBBB\n........\n........\n........\n........\n........\n........\n........\n",
            0,
            246,
        ),
    ];
    for (text, w, b) in cases {
        let boards = parse_boards(text).expect("valid board");
        assert_eq!(boards[0].scores(), (w, b), "\n{text}");
    }
}

#[test]
fn golden_boards_from_data_files() {
    let boards = std::fs::read_to_string("tests/data/golden-boards.txt").expect("data file");
    let scores = std::fs::read_to_string("tests/data/golden-scores.txt").expect("data file");
    let boards = parse_boards(&boards).expect("golden boards parse");
    let expected: Vec<(u32, u32)> = scores
        .lines()
        .map(|l| {
            let mut it = l
                .split_whitespace()
                .map(|x| x.parse::<u32>().expect("number"));
            (it.next().expect("white"), it.next().expect("black"))
        })
        .collect();
    assert_eq!(boards.len(), expected.len());
    for (b, e) in boards.iter().zip(expected) {
        assert_eq!(b.scores(), e, "\n{}", board_to_text(b));
        assert_eq!(
            (score_naive(b.white, b.size), score_naive(b.black, b.size)),
            e
        );
    }
}

#[test]
fn gain_equals_rescoring() {
    let mut rng = FastRng::new(99);
    for size in 3..=8u8 {
        for _ in 0..20_000 {
            let b = random_board(&mut rng, size, false);
            let free = Bitboard::full(size) & !(b.holes | b.white | b.black);
            for sq in free {
                let after = score(b.white | Bitboard::from_square(sq));
                assert_eq!(gain(b.white, sq), after - score(b.white));
            }
        }
    }
}
