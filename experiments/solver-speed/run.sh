#!/usr/bin/env bash
# The solver's speed before and after experiments/solver-speed: `pahtum
# bench --solver` on this tree and on the solver of commit f94f9f4 (the
# last before the speed-up) with today's bench code, one after the other.
# Prints both benches' solver lines. About 15 minutes of CPU on one core.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=f94f9f4
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cargo build --release --quiet
git worktree add --quiet --detach "$work/base" "$BASE"
# The base commit's bench has no solver figures: give it today's bench,
# which uses only the solver's public interface.
cp src/cli/bench.rs "$work/base/src/cli/bench.rs"
(cd "$work/base" && CARGO_TARGET_DIR="$PWD/../target" cargo build --release --quiet)
for build in before:"$work/target/release/pahtum" after:target/release/pahtum; do
    echo "== ${build%%:*}"
    nice -n 10 "${build#*:}" bench --seconds 0.05 --solver | grep '^solve'
done
