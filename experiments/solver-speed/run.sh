#!/usr/bin/env bash
# The solver's speed on this tree against two earlier solvers: that of
# commit f94f9f4 (the last before any speed-up) and that of commit 3753a0d
# (after the first round: table move first, transposition cutoffs,
# four-way buckets), each built into this tree (only the solver's files
# and the scorer taken from the old commit), so all three run the same
# bench. Runs `pahtum bench --solver` on each build, one after the other,
# and prints their solver lines. About 15 minutes of CPU on one core, most
# of it the older solvers' 24-square solves, plus two release builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The solver lived in src/bot/ then; it is src/solve.rs and src/solve/ now.
OLD_SOLVER=src/bot/solver
work=$(mktemp -d)
trap 'git worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cargo build --release --quiet
head=$(git rev-parse HEAD)
git worktree add --quiet --detach "$work/tree" "$head"
# The dependencies as this tree built them: only the solver is rebuilt.
mkdir -p "$work/target" && cp -a target/release "$work/target/"
# Uncommitted solver changes of this tree are not in HEAD: the "this tree"
# build below is the working tree itself.
# The old solvers lack the two result-only methods (result_sign,
# result_move) that mcts's root proof (prove=) now calls, which the bench
# does not time: each old solver gets this tree's two methods, written on
# the search API it shares (Search::negamax, child_of, stop_error).
# With them go the helper that starts their searches and the type of
# their answer.
awk '/^    \/\/\/ The sign of the exact value/,/^    \/\/\/ One best move by margin/' \
    src/solve.rs | sed '$d' >"$work/result_methods.rs"
awk '/^    \/\/\/ A search of `pos` under `limits`, and its scores/,/^    }$/' \
    src/solve.rs >>"$work/result_methods.rs"
grep -q 'pub fn result_move' "$work/result_methods.rs"
grep -q 'fn start' "$work/result_methods.rs"
awk '/^\/\/\/ A move the solver chose/,/^pub type Found/' src/solve.rs >"$work/found.rs"
grep -q '^pub type Found' "$work/found.rs"
builds=()
for base in f94f9f4 3753a0d; do
    (cd "$work/tree" && rm -rf src/solve src/solve.rs && mkdir src/solve &&
        git show "$base:$OLD_SOLVER.rs" >src/solve.rs &&
        for f in $(git ls-tree --name-only "$base" "$OLD_SOLVER/"); do
            git show "$base:$f" >"src/solve/${f##*/}"
        done &&
        sed -i 's/crate::bot::solver/crate::solve/g; s/crate::bot::eval/crate::eval/g; s/crate::bot::interrupt/crate::interrupt/g' src/solve.rs src/solve/*.rs &&
        { cat "$work/found.rs"; echo 'impl Solver {'; cat "$work/result_methods.rs"; echo '}'; } >>src/solve.rs &&
        git checkout --quiet "$base" -- src/game/scoring.rs &&
        CARGO_TARGET_DIR="$work/target" cargo build --release --quiet)
    cp "$work/target/release/pahtum" "$work/pahtum-$base"
    builds+=("$base:$work/pahtum-$base")
done
for build in "${builds[@]}" this-tree:target/release/pahtum; do
    echo "== ${build%%:*}"
    nice -n 10 "${build#*:}" bench --seconds 0.05 --solver | grep '^solve'
done
