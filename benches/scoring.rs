//! Scoring speed: full boards and single-stone gains.

mod harness;

use harness::Criterion;
use pahtum::{FastRng, Player, Rules, score};
use std::hint::black_box;

fn bench_scoring(c: &mut Criterion) {
    let mut rng = FastRng::new(42);
    let start = Rules::default()
        .new_game(&mut rng)
        .expect("standard rules are valid");
    let boards: Vec<_> = (0..1024).map(|_| start.random_fill(&mut rng)).collect();
    // The bench asserts what it measures, so a broken scorer cannot look fast.
    let total: u64 = boards
        .iter()
        .map(|b| score(b.stones(Player::White)) as u64 + score(b.stones(Player::Black)) as u64)
        .sum();
    assert!(total > 0);
    let mut i = 0;
    c.bench_function("score_full_board_both_colours", |b| {
        b.iter(|| {
            i = (i + 1) & 1023;
            let p = &boards[i];
            black_box(
                score(black_box(p.stones(Player::White)))
                    + score(black_box(p.stones(Player::Black))),
            )
        })
    });
    c.bench_function("gain_every_free_square", |b| {
        b.iter(|| {
            let p = black_box(&start);
            p.empty().map(|sq| p.gain(sq)).sum::<u32>()
        })
    });
}

fn main() {
    bench_scoring(&mut Criterion::default());
}
