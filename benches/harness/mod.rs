//! A small timing harness for the benches, in the shape of criterion's
//! `bench_function` / `iter` API: criterion and its dependencies took a
//! large share of every test build (dev-dependencies are compiled for
//! `cargo test` too), for three benches that only need a median time per
//! iteration. `cargo bench [FILTER]` runs the benches whose name contains
//! FILTER.

// Each bench compiles its own copy and uses only some of it.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// Runs benches and prints one `name: median ns/iter (min .. max)` line
/// per bench.
pub struct Criterion {
    filter: Option<String>,
    samples: usize,
}

impl Default for Criterion {
    fn default() -> Criterion {
        // cargo passes `--bench`; the first other argument is a filter.
        let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
        Criterion {
            filter,
            samples: 20,
        }
    }
}

/// Times one closure.
pub struct Bencher {
    samples: usize,
    per_sample: Vec<f64>,
}

impl Bencher {
    /// Calls `f` repeatedly: enough calls per sample for about 50 ms, then
    /// `samples` samples; records nanoseconds per call.
    pub fn iter<R>(&mut self, mut f: impl FnMut() -> R) {
        let t0 = Instant::now();
        std::hint::black_box(f());
        let once = t0.elapsed().max(Duration::from_nanos(1));
        let calls = (Duration::from_millis(50).as_nanos() / once.as_nanos()).clamp(1, 1 << 24);
        for _ in 0..self.samples {
            let t = Instant::now();
            for _ in 0..calls {
                std::hint::black_box(f());
            }
            self.per_sample
                .push(t.elapsed().as_nanos() as f64 / calls as f64);
        }
    }
}

impl Criterion {
    /// Runs `body` (which calls [`Bencher::iter`]) as the bench `name`.
    pub fn bench_function(&mut self, name: &str, body: impl FnOnce(&mut Bencher)) -> &mut Self {
        if self
            .filter
            .as_ref()
            .is_some_and(|f| !name.contains(f.as_str()))
        {
            return self;
        }
        let mut b = Bencher {
            samples: self.samples,
            per_sample: Vec::new(),
        };
        body(&mut b);
        let mut t = b.per_sample;
        t.sort_by(f64::total_cmp);
        if let (Some(lo), Some(hi)) = (t.first(), t.last()) {
            println!(
                "{name}: {:.1} ns/iter ({lo:.1} .. {hi:.1}, {} samples)",
                t[t.len() / 2],
                t.len()
            );
        }
        self
    }

    /// A group of benches sharing settings (names are prefixed by it).
    pub fn benchmark_group(&mut self, name: &str) -> Group<'_> {
        Group {
            c: self,
            prefix: name.to_string(),
        }
    }
}

/// Benches under one name prefix, with their own sample count.
pub struct Group<'a> {
    c: &'a mut Criterion,
    prefix: String,
}

impl Group<'_> {
    /// Samples per bench in this group.
    pub fn sample_size(&mut self, n: usize) -> &mut Self {
        self.c.samples = n.max(1);
        self
    }

    /// As [`Criterion::bench_function`], named `group/name`.
    pub fn bench_function(&mut self, name: &str, body: impl FnOnce(&mut Bencher)) -> &mut Self {
        let full = format!("{}/{name}", self.prefix);
        self.c.bench_function(&full, body);
        self
    }

    /// Ends the group.
    pub fn finish(self) {}
}
