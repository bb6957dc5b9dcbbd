#!/usr/bin/env python3
"""A greedy Pah Tum engine speaking the pahtum engine protocol (docs/protocol.md).

Copy it as a starting point. It plays the free square that adds most to its
own line score (ties: the square nearest the centre, then a1..g7 order) and
never takes the pie swap. Try it:
    pahtum play --engine py="python3 examples/greedy_engine.py" --white py --black greedy
"""
import sys

size, holes, stones, history = 7, set(), {}, []  # stones: square -> "w"/"b"

def name_of(c, r): return "abcdefgh"[c] + str(r + 1)

def score(own):
    """Line score of a set of squares: each run of n >= 3 scores 2^n - n - 2."""
    total = 0
    for lines in ([[(c, r) for c in range(size)] for r in range(size)],
                  [[(c, r) for r in range(size)] for c in range(size)]):
        for line in lines:
            run = 0
            for sq in line + [None]:
                if sq is not None and sq in own:
                    run += 1
                else:
                    total += 2 ** run - run - 2 if run >= 3 else 0
                    run = 0
    return total

def genmove(colour):
    own = {sq for sq, c in stones.items() if c == colour}
    free = [(c, r) for r in range(size) for c in range(size)
            if (c, r) not in stones and (c, r) not in holes]
    if not free:
        raise ValueError("the board is full")
    centre = (size - 1) / 2
    best = max(free, key=lambda sq: (score(own | {sq}) - score(own),
                                     -abs(sq[0] - centre) - abs(sq[1] - centre)))
    stones[best] = colour
    history.append(best)
    return name_of(*best)

def square(text):
    c, r = "abcdefgh".index(text[0].lower()), int(text[1:]) - 1
    if not (0 <= c < size and 0 <= r < size):
        raise ValueError("off the board")
    return (c, r)

def handle(cmd, args):
    global size, holes, stones, history
    if cmd == "protocol_version": return "1"
    if cmd == "name": return "greedy.py"
    if cmd == "version": return "1.0"
    if cmd == "known_command": return str(args[0] in COMMANDS).lower()
    if cmd == "list_commands": return "\n".join(COMMANDS)
    if cmd == "boardsize": size, holes, stones, history = int(args[0]), set(), {}, []; return ""
    if cmd == "clear_board": holes, stones, history = set(), {}, []; return ""
    if cmd == "set_holes": holes = {square(a) for a in args}; return ""
    if cmd in ("komi", "pie", "quit"): return ""  # greedy play ignores komi and the pie rule
    if cmd == "play":
        if args[1].lower() == "swap": history.append(None); return ""
        sq = square(args[1])
        if sq in stones or sq in holes: raise ValueError(args[1] + " is not free")
        stones[sq] = args[0][0].lower(); history.append(sq); return ""
    if cmd == "genmove": return genmove(args[0][0].lower())
    if cmd == "undo":
        sq = history.pop(); stones.pop(sq, None); return ""
    raise ValueError("unknown command")

COMMANDS = ["protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
            "clear_board", "set_holes", "komi", "pie", "play", "genmove", "undo", "quit"]

for line in sys.stdin:
    words = line.split("#")[0].split()
    if not words:
        continue
    try:
        print("= " + handle(words[0], words[1:]) + "\n", flush=True)
    except (ValueError, IndexError, KeyError) as e:
        print("? " + (str(e) or "bad arguments") + "\n", flush=True)
    if words[0] == "quit":
        break
