# Sourced by the probe scripts here (run from the repository root): strict
# mode, the paths, the build (skipped with NO_BUILD=1), a scratch directory
# removed on exit ($work) and the start time ($start); $CLASSIC and
# `pin SPEC`, which writes it out in an mcts spec.
set -euo pipefail
here=experiments/perfect-play
bin=target/release/pahtum
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# this experiment measured.
CLASSIC=prior=prune,mix=0,expand=2
# An mcts spec with each key of $CLASSIC it does not give added; other
# specs as they are. The probes print the spec as written and run this.
pin() {
  case $1 in
    mcts) echo "mcts:$CLASSIC" ;;
    mcts:*)
      local s=$1 kv
      for kv in ${CLASSIC//,/ }; do
        case ",${1#mcts:}," in *",${kv%%=*}="*) ;; *) s="$s,$kv" ;; esac
      done
      echo "$s" ;;
    *) echo "$1" ;;
  esac
}
