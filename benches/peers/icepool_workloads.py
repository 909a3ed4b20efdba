"""The peer workloads of benches/peers/ computed with icepool (pinned in
requirements.txt). Usage: python icepool_workloads.py [--repeat N] WORKLOAD...

Prints one JSON object per workload on stdout:
{"workload": ..., "seconds": best compute time of N runs, "values": [...]}
(the runner asks for one run per process: icepool caches what it has
computed, so a second run in the same process would be a cache lookup),
the values in the order hantei's side (peers.rs) prints them.
"""
import functools
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


# The mechanics of MECHANICS.md §1 (issue 18) and the BCDice game commands
# of §2–3 (issue 19), written from those definitions. Tiers are numbered
# best first, as hantei's --tier lists them; each workload returns the
# probability of every tier, in that order, for every setting.


def tier_probs(die, n):
    """P(tier = k) for k = 0..n-1 of a Die of tier numbers."""
    return [float(die.probability(k)) for k in range(n)]


def w4_blades():
    # W4: n d6, read the highest: 6 full, 4-5 partial, 1-3 bad; two or more
    # sixes a critical. Per die (is a six, is 4+), summed over the pool (the
    # icepool bitd notebook's way).
    die = icepool.d6.map(lambda x: Vector((int(x == 6), int(x >= 4))))

    def tier(v):
        sixes, fours = v
        return 0 if sixes >= 2 else 1 if sixes else 2 if fours else 3

    out = []
    for n in range(1, 7):
        out += tier_probs((n @ die).map(tier), 4)
    # Zero dice: 2d6, the lowest; no critical.
    low = icepool.lowest(icepool.d6, icepool.d6)
    out += [0.0] + tier_probs(low.map(lambda x: 0 if x == 6 else 1 if x >= 4 else 2), 3)
    return out


def year_zero(base, skill, gear):
    # W5: each 6 a success, one passes. A failed roll (no 6) is pushed once:
    # every die not showing a 6 or a 1 is rerolled, and skill dice's 1s too.
    # After a push each base-die 1 damages the attribute. Tiers: success,
    # success (hurt), failure (hurt), failure.
    #   Given the first roll failed, every die shows 1-5, uniformly. Per die
    #   after the push: (sixes, base ones).
    def face(x, is_base):
        return Vector((int(x == 6), int(is_base and x == 1)))

    kept_one = {True: Vector((0, 1)), False: Vector((0, 0))}
    pushed_base = icepool.Die([kept_one[True], icepool.d6.map(lambda x: face(x, True))], times=[1, 4])
    pushed_gear = icepool.Die([kept_one[False], icepool.d6.map(lambda x: face(x, False))], times=[1, 4])
    pushed_skill = icepool.d6.map(lambda x: face(x, False))
    pushed = base @ pushed_base + skill @ pushed_skill
    if gear:
        pushed = pushed + gear @ pushed_gear

    def judged(v):
        sixes, ones = v
        if sixes >= 1:
            return 0 if ones == 0 else 1
        return 2 if ones else 3

    pushed_tier = pushed.map(judged)
    first_sixes = (base + skill + gear) @ icepool.d6.map(lambda x: int(x == 6))
    final = first_sixes.map(lambda k: 0 if k >= 1 else pushed_tier)
    return tier_probs(final, 4)


def w5_year_zero():
    return year_zero(3, 2, 1)


def w5_year_zero_8():
    return year_zero(5, 3, 0)


def w8_v5():
    # W8: 3 normal + 2 hunger d10 against difficulty 3. 6+ a success, each
    # pair of 10s two more; a win with two 10s is critical, messy with a
    # hunger 10; a loss with a hunger 1 bestial; zero successes a total
    # failure. Per die: (6+, 10, hunger 10, hunger 1).
    normal = icepool.d10.map(lambda x: Vector((int(x >= 6), int(x == 10), 0, 0)))
    hunger = icepool.d10.map(lambda x: Vector((int(x >= 6), int(x == 10), int(x == 10), int(x == 1))))

    def tier(v):
        hits, tens, htens, hones = v
        if hits + 2 * (tens // 2) >= 3:
            if tens >= 2:
                return 0 if htens else 1
            return 2
        if hones:
            return 3
        return 4 if hits == 0 else 5

    return tier_probs((3 @ normal + 2 @ hunger).map(tier), 6)


# Savage Worlds' tiers read only whether the kept total reaches 12, so an
# explosion depth of 2 loses nothing: a d4 cut after two explosions shows
# 4+4+4 = 12, in the top tier as its untruncated total (≥ 13) is.
SAVAGE_DEPTH = 2


def w11_savage():
    # W11: trait die dN and a wild d6, each exploding on its own maximum;
    # the higher total counts: 4 success, each full 4 over it a raise; both
    # showing 1 a critical failure.
    wild = icepool.d6.explode(depth=SAVAGE_DEPTH)

    def tier(t, w):
        if t == 1 and w == 1:
            return 0
        m = max(t, w)
        return 1 if m >= 12 else 2 if m >= 8 else 3 if m >= 4 else 4

    out = []
    for s in (4, 6, 8, 10, 12):
        trait = icepool.d(s).explode(depth=SAVAGE_DEPTH)
        out += tier_probs(icepool.map(tier, trait, wild), 5)
    return out


def w14_daggerheart():
    # W14: hope d12 + fear d12 + 2 against a difficulty; matching dice a
    # critical success; else success/failure with hope (hope higher) or fear.
    out = []
    for dc in range(5, 26):
        def tier(h, f):
            if h == f:
                return 0
            if h + f + 2 >= dc:
                return 1 if h > f else 2
            return 3 if h > f else 4
        out += tier_probs(icepool.map(tier, icepool.d12, icepool.d12), 5)
    return out


class CortexEvaluator(icepool.MultisetEvaluator):
    """W16: (two highest usable dice summed, number of 1s); a 1 is a hitch
    and cannot be used."""

    def next_state(self, state, order, outcome, count):
        top, hitches = state or ((), 0)
        if outcome == 1:
            return top, hitches + count
        top = tuple(sorted(top + (outcome,) * min(count, 2), reverse=True)[:2])
        return top, hitches

    def final_outcome(self, state, *_):
        top, hitches = state
        return sum(top), hitches

    @property
    def next_state_key(self):
        return type(self)


def w16_cortex():
    # d10, 2d8, d6 against 11: all 1s a botch, then beat 11, then a miss
    # with a hitch, then a miss.
    pool = icepool.Pool([icepool.d10, icepool.d8, icepool.d8, icepool.d6])
    law = CortexEvaluator().evaluate(pool)

    def tier(v):
        total, hitches = v
        return 0 if hitches == 4 else 1 if total >= 11 else 2 if hitches else 3

    return tier_probs(law.map(tier), 4)


# L5R: the tiers read whether the kept total reaches the highest TN (70 at
# most), so a depth of 6 loses nothing: a d10 cut after six explosions
# shows 70, in the top tier as its untruncated total (> 70) is.
L5R_DEPTH = 6


def l5r(x, y, tns):
    # W21: x d10, each exploding on 10 and compounding into the same die;
    # keep and sum the y highest; tiers: the highest TN reached, then below.
    die = icepool.d10.explode(depth=L5R_DEPTH)
    total = die.pool(x).highest(y).sum()
    top = sorted(tns, reverse=True)
    tiers = total.map(lambda t: next((i for i, tn in enumerate(top) if t >= tn), len(top)))
    return tier_probs(tiers, len(top) + 1)


def w21_l5r_6k3():
    return l5r(6, 3, [10, 15, 20, 25, 30, 35, 40, 50])


def w21_l5r_10k5():
    return l5r(10, 5, [20, 30, 40, 50, 60, 70])


def w22_ore():
    # W22: 10 d10; width = size of the largest matching set, height = its
    # face (the higher face when two sets are as wide: MECHANICS.md is
    # silent; icepool's largest_count_and_outcome and docs/mechanics.md both
    # take the higher).
    def tier(v):
        w, h = v
        if w >= 5:
            return 0
        if w == 4:
            return 1
        if w == 3:
            return 2 if h >= 8 else 3
        if w == 2:
            return 4 if h >= 8 else 5
        return 6

    law = icepool.d10.pool(10).largest_count_and_outcome()
    return tier_probs(law.map(tier), 7)


def w13_ironsworn():
    # W13: action d6 + 2 (cap 10, not reached) against two d10 challenge
    # dice: beat both strong, one weak, none a miss; matching challenge dice
    # a twist (the tiers split it for strong hits and misses).
    def tier(a, c1, c2):
        s = min(a + 2, 10)
        beats = (s > c1) + (s > c2)
        if beats == 2:
            return 0 if c1 == c2 else 1
        if beats == 1:
            return 2
        return 3 if c1 == c2 else 4

    return tier_probs(icepool.map(tier, icepool.d6, icepool.d10, icepool.d10), 5)


def w15_genesys():
    # W15: 2 Ability d8, 1 Proficiency d12 against 2 Difficulty d8, the
    # faces of the FFG dice as (success, advantage, triumph); failure and
    # threat negative. A triumph is also a success.
    S, A, T, F, H = (Vector(v) for v in ((1, 0, 0), (0, 1, 0), (1, 0, 1), (-1, 0, 0), (0, -1, 0)))
    Z = Vector((0, 0, 0))
    ability = icepool.Die([Z, S, S, S + S, A, A, S + A, A + A])
    proficiency = icepool.Die([Z, S, S, S + S, S + S, A, S + A, S + A, S + A, A + A, A + A, T])
    difficulty = icepool.Die([Z, F, F + F, H, H, H, H + H, F + H])

    def tier(v):
        s, a, t = v
        if s >= 1:
            return 0 if t >= 1 else 1 if a >= 1 else 2
        return 3 if a >= 1 else 4

    law = 2 @ ability + proficiency + 2 @ difficulty
    return tier_probs(law.map(tier), 5)


def pool20_joint():
    # 20 d6 with the total, the sixes and the ones read jointly.
    die = icepool.d6.map(lambda x: Vector((x, int(x == 6), int(x == 1))))

    def tier(v):
        total, sixes, ones = v
        if sixes >= 5 and ones <= 2 and total >= 80:
            return 0
        if sixes >= ones + 3:
            return 1
        if total >= 75 and ones == 0:
            return 2
        if ones >= sixes + 4:
            return 3
        return 4 if total >= 70 else 5

    return tier_probs((20 @ die).map(tier), 6)


def dense(die, lo, hi):
    return [float(die.probability(x)) for x in range(lo, hi + 1)]


class CountAndMax(icepool.MultisetEvaluator):
    """(dice ≥ c, highest die) of one Double Cross round."""

    def __init__(self, c):
        self.c = c

    def next_state(self, state, order, outcome, count):
        crits, top = state or (0, 0)
        if count:
            top = max(top, outcome)
            if outcome >= self.c:
                crits += count
        return crits, top


# Double Cross: hantei cuts the critical chain where less than 1e-15 is
# left; icepool stops after DX_DEPTH rounds (a round still critical then
# counts 10 and rolls no more). With 10 dice at c = 7, some die of round r
# is still ≥ 7 with probability ≤ 10 · 0.4^r: after 30 rounds ≤ 1.2e-11,
# well inside 1e-9.
DX_DEPTH = 30


def dx_10dx7():
    # J4 `10DX7+4`: roll k d10; the round is worth 10 if a die is ≥ 7, else
    # its highest die; the next round rolls the dice that were ≥ 7. Value =
    # Σ rounds + 4; all first-round dice 1 is a fumble, printed as 0.
    c, n, m = 7, 10, 4
    rounds = {k: CountAndMax(c).evaluate(icepool.d10.pool(k)) for k in range(1, n + 1)}

    @functools.cache
    def chain(k, depth):
        # Sum of the rounds from one of k dice on.
        def step(crits, top):
            if not crits:
                return top
            if depth == 0:
                return 10
            return 10 + chain(crits, depth - 1)
        return rounds[k].map(step, star=True)

    first = rounds[n]

    def value(crits, top):
        if top == 1:
            return 0
        if not crits:
            return top + m
        return 10 + m + chain(crits, DX_DEPTH - 1)

    law = first.map(value, star=True)
    words = first.map(lambda crits, top: 2 if top == 1 else 0 if crits else 1, star=True)
    w = tier_probs(words, 3)  # critical, no critical, fumble
    return dense(law, 0, 450) + w + [w[0], w[2]]


# Sword World 2.0/2.5 power table (威力表), key 20: the value for 2D6 = 3..12
# (the rulebook's table; BCDice getSW2_0_RatingTable row 20).
K20 = {3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8, 11: 9, 12: 10}
# hantei cuts the critical chain where less than 1e-15 is left; icepool
# stops after SW_DEPTH rounds (a round still critical then rolls no
# more): each round continues with 1/6, so 6^-16 ≈ 3.5e-13 moves.
SW_DEPTH = 15


def sw_k20():
    # J3 `K20+5@10`: each round rolls 2D6 and reads the table; a natural 2
    # ends the chain worth 0 (on the first roll: automatic failure, which
    # BCDice prints without a value: counted as 0 here, as hantei does);
    # 2D6 ≥ 10 rolls again (回転). Value = Σ table + 5.
    two = 2 @ icepool.d6

    @functools.cache
    def chain(depth):
        def step(s):
            if s <= 2:
                return 0
            if s >= 10 and depth > 0:
                return K20[s] + chain(depth - 1)
            return K20[s]
        return two.map(step)

    def value(s):
        if s <= 2:
            return 0
        if s >= 10:
            return K20[s] + 5 + chain(SW_DEPTH - 1)
        return K20[s] + 5

    law = two.map(value)
    words = two.map(lambda s: 2 if s <= 2 else 0 if s >= 10 else 1)
    w = tier_probs(words, 3)  # critical (回転), no critical, automatic failure
    return dense(law, 0, 250) + w + [w[0], w[2]]


def coc7_cc2():
    # J2 `CC(2)<=50`: three tens d10 (10 reads 0) and one ones d10 (10
    # reads 0); each candidate tens·10 + ones, 0 read as 100; two bonus
    # dice keep the lowest. Levels: 1 critical; fumble 100 (96+ below
    # skill 50); extreme ≤ 10, hard ≤ 25, regular ≤ 50; else failure.
    digit = icepool.d10.map(lambda x: x % 10)

    def roll(ones, *tens):
        return min((10 * t + ones) or 100 for t in tens)

    law = icepool.map(roll, digit, digit, digit, digit)
    s = 50

    def level(r):
        if r == 1:
            return 0
        if r >= (96 if s < 50 else 100):
            return 5
        return 1 if r <= s // 5 else 2 if r <= s // 2 else 3 if r <= s else 4

    lv = tier_probs(law.map(level), 6)
    return dense(law, 1, 100) + lv + [sum(lv[:4]), lv[0], lv[5]]


# Chained rolls (issue 28): one roll's result decides the next.


def dnd_attack_die():
    # `1D20+5 -> natural==20: 2D8+4; natural==1: 0; >=15: 1D8+4; 0`: a
    # natural 20 doubles the damage dice, a natural 1 misses, 15 or more
    # hits; the face of the d20 picks the damage die (a mixture).
    def damage(x):
        if x == 20:
            return 2 @ icepool.d8 + 4
        if x == 1:
            return 0
        if x + 5 >= 15:
            return icepool.d8 + 4
        return 0

    return icepool.d20.map(damage)


def chain_dnd_attack():
    # The damage law of one attack, P(damage = 0..20).
    return dense(dnd_attack_die(), 0, 20)


def chain_dnd_round_100():
    # Two such attacks a round; P(100 HP dealt within k rounds), k = 1..50.
    t = (2 @ dnd_attack_die()).time_to_sum(100, 50, dnf=51)
    return [float(t.probability('<=', k)) for k in range(1, 51)]


def chain_40k():
    # 40 attacks: hit 3+, a natural 6 scoring two hits; each hit wounds on
    # 4+; each wound is saved on 3+ (unsaved on 1-2). The count of each
    # stage is the pool size of the next (`n @ die` inside `map`: a mixture
    # over the counts). P(unsaved wounds = 0..80).
    hit = icepool.d6.map({1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2})
    wound = icepool.d6.map(lambda x: int(x >= 4))
    unsaved = icepool.d6.map(lambda x: int(x <= 2))
    hits = 40 @ hit
    wounds = hits.map(lambda h: h @ wound)
    law = wounds.map(lambda w: w @ unsaved)
    return dense(law, 0, 80)


def dx_achievement(n, m):
    """Double Cross `nDX7+m`'s achievement (達成値), a fumble (all ones on
    the first roll) as 0 (the chain's `>= 15` then misses), as dx_10dx7
    builds it: the rounds to DX_DEPTH."""
    c = 7
    rounds = {k: CountAndMax(c).evaluate(icepool.d10.pool(k)) for k in range(1, n + 1)}

    @functools.cache
    def chain(k, depth):
        def step(crits, top):
            if not crits:
                return top
            if depth == 0:
                return 10
            return 10 + chain(crits, depth - 1)
        return rounds[k].map(step, star=True)

    def value(crits, top):
        if top == 1:
            return 0
        if not crits:
            return top + m
        return 10 + m + chain(crits, DX_DEPTH - 1)

    return rounds[n].map(value, star=True)


def chain_dx_5dx7():
    # `5DX7+4 -> >=15: (達成値/10+1)D10+8; 0` under DoubleCross: the
    # achievement picks the number of damage dice. P(damage = 0..500).
    ach = dx_achievement(5, 4)
    law = ach.map(lambda a: (a // 10 + 1) @ icepool.d10 + 8 if a >= 15 else 0)
    return dense(law, 0, 500)


def chain_dx_10dx7():
    # The same chain from 10 dice (the criterion bench's `10DX7+4`); with
    # 10 dice DX_DEPTH = 30 leaves <= 10 * 0.4^30 ~ 1.2e-11 uncut.
    ach = dx_achievement(10, 4)
    law = ach.map(lambda a: (a // 10 + 1) @ icepool.d10 + 8 if a >= 15 else 0)
    return dense(law, 0, 500)


# Scaling series (issue 27): how each mechanic's work grows as its size
# doubles, the same mechanics as above with a size parameter (peers.rs's
# d6_joint, yze_pushed, cortex, keep3_d20, l5r and savage).


def d6_joint(n):
    # n d6 with the total, the sixes and the ones read jointly: the tiers
    # of pool20_joint, thresholds scaled with n as peers.rs scales them.
    die = icepool.d6.map(lambda x: Vector((x, int(x == 6), int(x == 1))))

    def tier(v):
        total, sixes, ones = v
        if sixes >= n // 4 and ones <= n // 10 and total >= 4 * n:
            return 0
        if sixes >= ones + 3:
            return 1
        if total >= 15 * n // 4 and ones == 0:
            return 2
        if ones >= sixes + 4:
            return 3
        return 4 if total >= 7 * n // 2 else 5

    return tier_probs((n @ die).map(tier), 6)


def yze_pushed(n):
    # Year Zero, n dice pushed: n - n/2 base, n/2 skill, no gear (W5).
    return year_zero(n - n // 2, n // 2, 0)


def cortex(n):
    # Cortex Prime, n mixed dice (d10, d8, d8, d6, repeating); 1s are
    # hitches, never kept; the two highest against 11 (beat it: 12 or
    # more); all 1s a botch, then beat 11, then a miss with a hitch, then
    # a miss (peers.rs's cortex(n)).
    kinds = [icepool.d10, icepool.d8, icepool.d8, icepool.d6]
    pool = icepool.Pool([kinds[i % 4] for i in range(n)])
    law = CortexEvaluator().evaluate(pool)

    def tier(v):
        total, hitches = v
        return 0 if hitches == n else 1 if total >= 12 else 2 if hitches else 3

    return tier_probs(law.map(tier), 4)


def keep3_d20(n):
    # Keep the 3 highest of n d20: tiers >= 55, >= 45, >= 30, below.
    total = icepool.d20.pool(n).highest(3).sum()
    return tier_probs(total.map(lambda t: 0 if t >= 55 else 1 if t >= 45 else 2 if t >= 30 else 3), 4)


# L5R series: the least explosion depth at which every value is within
# 1e-9 of hantei's (measured against it): 5k3 depth 2 loses nothing (a die
# cut after two explosions shows 30, the top TN; depth 1 moves 2.9e-3);
# 10k5 depth 5 (a die cut at 60 < 70 moves 3.5e-11; depth 4 moves 5.5e-7);
# 20k10 depth 7 (cut at 80 < 120 moves 2.9e-12; depth 6 moves 2.1e-9).
SCALE_L5R_DEPTH = {"5k3": 2, "10k5": 5, "20k10": 7}


def l5r_depth(x, y, tns, depth):
    # l5r (W21) with the explosion depth given, x d10 keep y.
    die = icepool.d10.explode(depth=depth)
    total = die.pool(x).highest(y).sum()
    top = sorted(tns, reverse=True)
    tiers = total.map(lambda t: next((i for i, tn in enumerate(top) if t >= tn), len(top)))
    return tier_probs(tiers, len(top) + 1)


def savage_depth(s):
    """The least explosion depth that loses nothing for a dS read up to 12:
    a die cut after d explosions shows s·(d+1), which must reach the top
    tier (12) as the uncut total does; one depth less cuts it below 12
    and moves 0.015 (d4) to 0.12 (d6, and the wild d6) of mass, measured
    against hantei. d4: 2, d6: 1, d8: 1, d10: 1, d12: 0."""
    return -(-12 // s) - 1


def savage(s):
    # Savage Worlds, one trait die dS and a wild d6 (W11 at one die size),
    # each at savage_depth: the tiers read the kept total up to 12 only.
    wild = icepool.d6.explode(depth=savage_depth(6))
    trait = icepool.d(s).explode(depth=savage_depth(s))

    def tier(t, w):
        if t == 1 and w == 1:
            return 0
        m = max(t, w)
        return 1 if m >= 12 else 2 if m >= 8 else 3 if m >= 4 else 4

    return tier_probs(icepool.map(tier, trait, wild), 5)


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
    "w4_blades": w4_blades,
    "w5_year_zero": w5_year_zero,
    "w5_year_zero_8": w5_year_zero_8,
    "w8_v5": w8_v5,
    "w11_savage": w11_savage,
    "w14_daggerheart": w14_daggerheart,
    "w16_cortex": w16_cortex,
    "w21_l5r_6k3": w21_l5r_6k3,
    "w21_l5r_10k5": w21_l5r_10k5,
    "w22_ore": w22_ore,
    "w13_ironsworn": w13_ironsworn,
    "w15_genesys": w15_genesys,
    "pool20_joint": pool20_joint,
    "dx_10dx7": dx_10dx7,
    "sw_k20": sw_k20,
    "coc7_cc2": coc7_cc2,
    "chain_dnd_attack": chain_dnd_attack,
    "chain_dnd_round_100": chain_dnd_round_100,
    "chain_40k": chain_40k,
    "chain_dx_5dx7": chain_dx_5dx7,
    "chain_dx_10dx7": chain_dx_10dx7,
    "scale_d6_10": lambda: d6_joint(10),
    "scale_d6_20": lambda: d6_joint(20),
    "scale_d6_40": lambda: d6_joint(40),
    "scale_d6_80": lambda: d6_joint(80),
    "scale_yze_4": lambda: yze_pushed(4),
    "scale_yze_8": lambda: yze_pushed(8),
    "scale_yze_12": lambda: yze_pushed(12),
    "scale_yze_16": lambda: yze_pushed(16),
    "scale_cortex_3": lambda: cortex(3),
    "scale_cortex_6": lambda: cortex(6),
    "scale_cortex_12": lambda: cortex(12),
    "scale_keep3_5": lambda: keep3_d20(5),
    "scale_keep3_10": lambda: keep3_d20(10),
    "scale_keep3_20": lambda: keep3_d20(20),
    "scale_keep3_40": lambda: keep3_d20(40),
    "scale_l5r_5k3": lambda: l5r_depth(5, 3, [10, 20, 30], SCALE_L5R_DEPTH["5k3"]),
    "scale_l5r_10k5": lambda: l5r_depth(10, 5, [20, 30, 40, 50, 60, 70], SCALE_L5R_DEPTH["10k5"]),
    "scale_l5r_20k10": lambda: l5r_depth(20, 10, [60, 80, 100, 120], SCALE_L5R_DEPTH["20k10"]),
    "scale_savage_d4": lambda: savage(4),
    "scale_savage_d6": lambda: savage(6),
    "scale_savage_d8": lambda: savage(8),
    "scale_savage_d10": lambda: savage(10),
    "scale_savage_d12": lambda: savage(12),
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
