# Sourced by an experiment's run.sh once it is in its own folder: builds
# the release binary the run uses, starts the clock of its closing
# "run time" line and clears the previous run's out/.
cargo build --release --quiet
start=$(date +%s)
rm -rf out
