#!/usr/bin/env bash
# tuning/alphabeta-spsa: SPSA on alphabeta's evaluation weights (decay,
# reach, defence) at once, at a small fixed cost per move (nodes=20000),
# theta+ against theta-; then the gate: the tuned weights against the
# previous defaults written out in full, a pentanomial SPRT at equal time
# per move (ms=20) on the standard 7x7 game (../tune-and-gate.sh; PART=
# and RESUME= as it says).
set -euo pipefail
cd "$(dirname "$0")"
cost=nodes=20000
params=(--param decay=0.1..0.8 --param reach=1..6 --param defence=0.4..2.5)
pairs=3000
tune_seed=2
gate_seed=32
# Every key of the defaults the tune started from (nodes= and ms= aside).
old="alphabeta:depth=64,solve=18,tt=16,decay=0.4,reach=3,defence=1.3"
source ../tune-and-gate.sh
