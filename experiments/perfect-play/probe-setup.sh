# Sourced by the probe scripts here (run from the repository root): strict
# mode, the paths, the build (skipped with NO_BUILD=1), a scratch directory
# removed on exit ($work) and the start time ($start).
set -euo pipefail
here=experiments/perfect-play
bin=target/release/pahtum
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
