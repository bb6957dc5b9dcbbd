#!/usr/bin/env bash
# CI for the Python package: builds it with pip in a fresh virtual
# environment (as a user would: `pip install ./python`), installs the test
# dependencies from the registry and runs the Python tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
start=$(date +%s)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"${PYTHON:-python3}" -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install -q --upgrade pip
# Its own target directory (kept between runs): sharing the root's would
# rebuild crates both sides build with other settings, back and forth.
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}" "$py" -m pip install -q "$here[test]"
# Run from outside the source tree, so the installed package is imported.
cd "$work"
PAHTUM_BIN="${PAHTUM_BIN:-$here/../target/release/pahtum}" "$py" -m pytest -q -p no:cacheprovider "$here/tests"
echo "python/ci.sh: $(( $(date +%s) - start )) s"
