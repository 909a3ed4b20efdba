"""The peer workloads of benches/peers/ computed with icepool (pinned in
requirements.txt). Usage: python icepool_workloads.py [--repeat N] WORKLOAD...

Prints one JSON object per workload on stdout:
{"workload": ..., "seconds": best compute time of N runs, "values": [...]}
(the runner asks for one run per process: icepool caches what it has
computed, so a second run in the same process would be a cache lookup),
the values in the order hantei's side (peers.rs) prints them.
"""
import json
import sys
import time

import icepool
from icepool import Vector

# Explosion depth for exploding sixes: icepool stops exploding after this
# many rerolls (the last six then adds nothing): per die that moves 6^-13 ≈ 8e-11 of mass,
# so pools of 40 agree with the untruncated law to about 3e-9.
DEPTH = 12


def hit_pool_plain():
    die = icepool.d6.map(lambda x: Vector((int(x >= 5), int(x == 1))))
    out = []
    for n in range(1, 41):
        law = n @ die
        hits = [0.0] * (n + 1)
        glitch = crit = 0.0
        for (h, o), p in zip(law.outcomes(), law.probabilities()):
            p = float(p)
            hits[h] += p
            if 2 * o >= n:
                glitch += p
                if h == 0:
                    crit += p
        out += hits + [glitch, crit]
    return out


def exploding(n_max, depth):
    # (hits, score): score +1 for a one, -1 for any other face, over every
    # die rolled (all-dice): a glitch is score >= 0.
    base = icepool.d6.map(lambda x: Vector((int(x >= 5), 1 if x == 1 else -1, int(x == 6))))
    die = base.explode([o for o in base.outcomes() if o[2] == 1], depth=depth)
    return die.map(lambda v: Vector((v[0], v[1])))


def hit_pool_push():
    die = exploding(40, DEPTH)
    out = []
    for n in range(1, 41):
        law = n @ die
        hits = [0.0] * (2 * n + 1)
        glitch = crit = 0.0
        for (h, s), p in zip(law.outcomes(), law.probabilities()):
            p = float(p)
            if h <= 2 * n:
                hits[h] += p
            if s >= 0:
                glitch += p
                if h == 0:
                    crit += p
        out += hits + [glitch, crit]
    return out


def keep_highest():
    out = []
    for s in (4, 6, 8, 10, 12, 20):
        for n in range(1, 11):
            top = icepool.d(s).pool(n).highest(1).sum()
            for d in range(2, 21):
                out.append(float(top.probability('>=', d)))
    return out


def d20():
    kept = {
        "normal": icepool.d20,
        "advantage": icepool.highest(icepool.d20, icepool.d20),
        "disadvantage": icepool.lowest(icepool.d20, icepool.d20),
    }
    out = []
    for roll in ("normal", "advantage", "disadvantage"):
        die = kept[roll]
        for m in range(-5, 16):
            for dc in range(5, 31):
                # A natural 1 fails, a natural 20 succeeds.
                t = min(max(dc - m, 2), 20)
                out.append(float(die.probability('>=', t)))
    return out


def d100_tiers():
    out = []
    for rate in range(1, 201):
        t = 96 if rate < 110 else 96 + min(4, (rate - 100) // 10)

        def tier(r):
            if r < t and r <= rate // 10:
                return 4
            if r < t and r <= rate // 2:
                return 3
            if r < t and r <= rate:
                return 2
            if r > rate and (r % 11 == 0 or r == 100):
                return 0
            return 1

        law = icepool.d100.map(tier)
        out += [float(law.probability(k)) for k in range(5)]
    return out


def push_1000():
    # Hits only (the joint with ones is beyond icepool at this size).
    base = icepool.d6.map(lambda x: Vector((int(x >= 5), int(x == 6))))
    die = base.explode([o for o in base.outcomes() if o[1] == 1], depth=DEPTH)
    hits = die.map(lambda v: v[0])
    # icepool sums n dice by recursion, one level per die.
    sys.setrecursionlimit(20_000)
    law = 1000 @ hits
    return [float(law.probability(k)) for k in range(0, 801)]


def contest_100():
    hits = icepool.d6.map(lambda x: int(x >= 5))
    a = 100 @ hits
    win = (a > a).probability(True)
    tie = (a == a).probability(True)
    return [float(win), float(tie), float(1 - win - tie)]


def rounds_2d6_100():
    # P(2D6 damage has reached 100 HP within k rounds), k = 1..50.
    t = (2 @ icepool.d6).time_to_sum(100, 50, dnf=51)
    return [float(t.probability('<=', k)) for k in range(1, 51)]


def rounds_pool_20():
    # P(20 dice, 5+ a success, have made 60 successes within k rounds).
    hits = 20 @ icepool.d6.map(lambda x: int(x >= 5))
    t = hits.time_to_sum(60, 50, dnf=51)
    return [float(t.probability('<=', k)) for k in range(1, 51)]


WORKLOADS = {
    "hit_pool_plain": hit_pool_plain,
    "hit_pool_push": hit_pool_push,
    "keep_highest": keep_highest,
    "d20": d20,
    "d100_tiers": d100_tiers,
    "push_1000": push_1000,
    "contest_100": contest_100,
    "rounds_2d6_100": rounds_2d6_100,
    "rounds_pool_20": rounds_pool_20,
}


def main(argv):
    repeat = 1
    names = []
    it = iter(argv)
    for a in it:
        if a == "--repeat":
            repeat = int(next(it))
        else:
            names.append(a)
    for name in names or list(WORKLOADS):
        best = float("inf")
        values = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            values = WORKLOADS[name]()
            best = min(best, time.perf_counter() - t0)
        print(json.dumps({"workload": name, "seconds": best, "values": values}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
