#!/usr/bin/env bash
# CI for the Python package: builds its one wheel with maturin (the stable
# ABI: one wheel for every CPython from 3.10 on, so its tag must be abi3),
# installs that wheel with the test dependencies from the registry into a
# fresh virtual environment, and runs the Python tests against it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
start=$(date +%s)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"${PYTHON:-python3}" -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q "maturin>=1.5,<2"
# Its own target directory (kept between runs): sharing the root's would
# rebuild crates both sides build with other settings, back and forth.
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}" \
    "$work/venv/bin/maturin" build --release --quiet -m "$here/Cargo.toml" -o "$work/wheels"
wheels=("$work/wheels"/*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    echo "python/ci.sh: expected one wheel, found: ${wheels[*]}" >&2
    exit 1
fi
wheel="${wheels[0]}"
# The name ends in PYTHON-ABI-PLATFORM.whl; a wheel tied to one CPython
# (cp311-cp311) would leave users of every other version building from source.
tag="$(basename "$wheel" .whl | rev | cut -d- -f1-3 | rev)"
case "$tag" in
    cp3*-abi3-*) echo "python/ci.sh: wheel $(basename "$wheel")" ;;
    *)
        echo "python/ci.sh: wheel $(basename "$wheel") is not abi3 (tag $tag)" >&2
        exit 1
        ;;
esac
"$py" -m pip install -q "$wheel[test]"
# Run from outside the source tree, so the installed wheel is imported.
cd "$work"
"$py" -c 'import pahtum, sys; sys.exit(0 if "site-packages" in pahtum.__file__ else "pahtum imported from " + pahtum.__file__)'
PAHTUM_BIN="${PAHTUM_BIN:-$here/../target/release/pahtum}" "$py" -m pytest -q -p no:cacheprovider "$here/tests"
echo "python/ci.sh: $(( $(date +%s) - start )) s"
