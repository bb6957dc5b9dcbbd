#!/usr/bin/env python3
"""A misbehaving engine for fault-injection tests.

Usage: faulty.py MODE N [TAG]. Plays the first free square until its N-th
genmove (counted over the whole process, 1-based), then misbehaves by MODE:
  crash    writes a message on stderr and exits with status 3
  hang     never answers (sleeps)
  illegal  answers an occupied square or a hole (or h8, off a 7x7 board)
  garbage  prints a line that is not an answer
  refuse   answers "? ..." to genmove
  startup  (N ignored) exits at once, before reading anything
  mute     (N ignored) never answers anything: sleeps from the start
TAG is ignored: tests put a unique word there to find leftover processes.
"""
import sys
import time

mode, n = sys.argv[1], int(sys.argv[2])
if mode == "startup":
    sys.stderr.write("faulty.py: failing at startup\n")
    sys.exit(4)
if mode == "mute":
    time.sleep(3600)

size, holes, stones, genmoves = 7, set(), set(), 0

def reply(text, ok=True):
    print(("= " if ok else "? ") + text + "\n", flush=True)

for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    cmd, args = w[0], w[1:]
    if cmd == "boardsize":
        size, holes, stones = int(args[0]), set(), set()
        reply("")
    elif cmd == "clear_board":
        holes, stones = set(), set()
        reply("")
    elif cmd == "set_holes":
        holes = set(args)
        reply("")
    elif cmd == "play":
        stones.add(args[1])
        reply("")
    elif cmd == "genmove":
        genmoves += 1
        if genmoves >= n and mode == "crash":
            sys.stderr.write("faulty.py: crashing on purpose at genmove %d\n" % genmoves)
            sys.stderr.flush()
            sys.exit(3)
        if genmoves >= n and mode == "hang":
            time.sleep(3600)
        if genmoves >= n and mode == "illegal":
            taken = sorted(s for s in stones | holes if s != "swap")
            reply(taken[0] if taken else "h8")
            continue
        if genmoves >= n and mode == "garbage":
            print("I think the best move is somewhere in the middle", flush=True)
            continue
        if genmoves >= n and mode == "refuse":
            reply("I resign", ok=False)
            continue
        free = ["abcdefgh"[c] + str(r + 1) for r in range(size) for c in range(size)]
        free = [s for s in free if s not in stones and s not in holes]
        stones.add(free[0])
        reply(free[0])
    elif cmd == "quit":
        reply("")
        break
    elif cmd in ("komi", "pie", "protocol_version", "name", "version"):
        reply("")
    else:
        reply("unknown command", ok=False)
