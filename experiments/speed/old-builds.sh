# Sourced by counts.sh and side-by-side.sh, which compare the same
# binaries: builds pahtum at each commit in $OLDS (a2f8cec and 5e9f8bf
# unless set) in a throwaway worktree, and at HEAD, into
# $work/pahtum-<commit> and $work/pahtum-HEAD. Sets repo, olds and work; the
# worktree and $work go when the sourcing script exits.
repo=$(git rev-parse --show-toplevel)
olds=(${OLDS:-a2f8cec 5e9f8bf})
work=$(mktemp -d)
git -C "$repo" worktree add -q --detach "$work/tree" HEAD
trap 'git -C "$repo" worktree remove --force "$work/tree"; rm -rf "$work"' EXIT
for old in "${olds[@]}"; do
  git -C "$work/tree" checkout -q --force "$old"
  (cd "$work/tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q)
  cp "$work/target/release/pahtum" "$work/pahtum-$old"
done
(cd "$repo" && cargo build --release -q)
cp "$repo/target/release/pahtum" "$work/pahtum-HEAD"
