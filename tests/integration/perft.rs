//! Perft from data: `size holes depth count` per line of tests/data/perft.txt.

use pahtum::game::perft::perft;
use pahtum::{Bitboard, Komi, Position};

#[test]
fn perft_counts_match_the_data_file() {
    let data = std::fs::read_to_string("tests/data/perft.txt").expect("data file");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<u64> = line
            .split_whitespace()
            .map(|x| x.parse().expect("number"))
            .collect();
        let (size, holes, depth, expected) = (f[0] as u8, f[1] as usize, f[2] as u32, f[3]);
        // Holes on the first squares: perft depends only on the free count.
        let h: Bitboard = Bitboard::full(size).take(holes).collect();
        let mut pos = Position::new(size, h, false, Komi::ZERO).expect("valid position");
        let start = pos;
        assert_eq!(perft(&mut pos, depth), expected, "{line}");
        assert_eq!(pos, start, "perft must leave the position as it found it");
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
fn perft_is_the_falling_factorial_until_the_end() {
    for size in 3..=5u8 {
        let mut pos = Position::new(size, Bitboard::EMPTY, false, Komi::ZERO).expect("valid");
        let e = (size as u64).pow(2);
        for depth in 0..=3u32.min(e as u32) {
            let falling: u64 = (0..depth as u64).map(|i| e - i).product();
            assert_eq!(perft(&mut pos, depth), falling);
        }
    }
    // A full game on 3x3 with one hole: 8! sequences, and none past the end.
    let mut pos =
        Position::new(3, Bitboard::full(3).take(1).collect(), false, Komi::ZERO).expect("valid");
    assert_eq!(perft(&mut pos, 8), 40_320);
}
