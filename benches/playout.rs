//! Random playout speed from the start of a standard game.

mod harness;

use harness::Criterion;
use pahtum::{FastRng, Rules};
use std::hint::black_box;

fn bench_playout(c: &mut Criterion) {
    let mut rng = FastRng::new(42);
    let start = Rules::default()
        .new_game(&mut rng)
        .expect("standard rules are valid");
    let mut wins = 0u64;
    c.bench_function("random_playout_7x7_5_holes", |b| {
        b.iter(|| {
            let m = black_box(&start).random_playout(&mut rng);
            wins += (m > 0) as u64;
            black_box(m)
        })
    });
    assert!(wins > 0, "some random playouts must be White wins");
}

fn main() {
    bench_playout(&mut Criterion::default());
}
