#!/bin/sh
# A shell engine that answers every command with "=" but hangs on genmove by
# starting a child process (sleep): killing only the shell would leave the
# sleep behind, so this checks that the whole process group is killed.
# Usage: hang.sh SECONDS (tests pass a unique number to find leftovers).
while read -r line; do
  case "$line" in
    genmove*) sleep "$1" ;;
    *) printf '=\n\n' ;;
  esac
done
