#!/usr/bin/env python3
"""A greedy Pah Tum engine speaking the pahtum engine protocol (docs/protocol.md).

Copy it as a starting point. It plays the free square that adds most to its
own line score (ties: the square nearest the centre, then a1..g7 order) and
never takes the pie swap. It also shows the optional commands: a game clock
(`time_settings`, `time_left`: how a searching engine would share its time
out) and `search_info` (what it thought, for the run's moves.csv). Try it:
    pahtum play --engine py="python3 examples/greedy_engine.py" --white py --black greedy
    pahtum play --engine py="python3 examples/greedy_engine.py" --white py:tc=5+0.1 --black greedy
"""
import sys
import time

size, holes, stones, history = 7, set(), {}, []  # stones: square -> "w"/"b"
increment, time_left = 0.0, None  # seconds; time_left: this move's clock, if clocked
last_info = ""  # the search_info answer for the last genmove

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

def move_budget(free):
    """Seconds this move may take: the clock shared evenly over our moves left
    (every move fills a square, so they are known exactly), plus the increment,
    less a tenth kept in reserve. A searching engine would stop at this
    deadline; the greedy choice takes microseconds, so it never needs it."""
    if time_left is None:
        return None
    ours = (len(free) + 1) // 2
    return 0.9 * time_left / max(ours, 1) + increment

def genmove(colour):
    global time_left, last_info
    started = time.monotonic()
    own = {sq for sq, c in stones.items() if c == colour}
    free = [(c, r) for r in range(size) for c in range(size)
            if (c, r) not in stones and (c, r) not in holes]
    if not free:
        raise ValueError("the board is full")
    budget = move_budget(free)
    time_left = None  # a clock is shown for one move
    centre = (size - 1) / 2
    gain = lambda sq: score(own | {sq}) - score(own)
    best = max(free, key=lambda sq: (gain(sq), -abs(sq[0] - centre) - abs(sq[1] - centre)))
    if budget is not None and time.monotonic() - started > budget:
        print("over budget", file=sys.stderr)
    stones[best] = colour
    history.append(best)
    # Each free square was valued once, one ply deep; eval is the line points
    # the move adds (the engine's own scale).
    last_info = f"nodes={len(free)} depth=1 eval={gain(best)} pv={name_of(*best)}"
    return name_of(*best)

def square(text):
    c, r = "abcdefgh".index(text[0].lower()), int(text[1:]) - 1
    if not (0 <= c < size and 0 <= r < size):
        raise ValueError("off the board")
    return (c, r)

def handle(cmd, args):
    global size, holes, stones, history, increment, time_left
    if cmd == "protocol_version": return "1"
    if cmd == "name": return "greedy.py"
    if cmd == "version": return "1.0"
    if cmd == "known_command": return str(args[0] in COMMANDS).lower()
    if cmd == "list_commands": return "\n".join(COMMANDS)
    if cmd == "boardsize": size, holes, stones, history = int(args[0]), set(), {}, []; return ""
    if cmd == "clear_board": holes, stones, history = set(), {}, []; return ""
    if cmd == "set_holes": holes = {square(a) for a in args}; return ""
    if cmd in ("komi", "pie", "quit"): return ""  # greedy play ignores komi and the pie rule
    if cmd == "time_settings":  # BASE INC, seconds: the games that follow are clocked
        increment = float(args[1]); return ""
    if cmd == "time_left":  # COLOUR SECONDS: our clock before the next genmove
        time_left = float(args[1]); return ""
    if cmd == "search_info": return last_info
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
            "clear_board", "set_holes", "komi", "pie", "time_settings", "time_left", "play",
            "genmove", "search_info", "undo", "quit"]

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
