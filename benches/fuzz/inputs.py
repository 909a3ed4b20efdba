#!/usr/bin/env python3
"""Bad and extreme input, at random: hantei answers (exit 0) or refuses
with a message (exit 2), and never panics, aborts or runs out of memory.

    python3 benches/fuzz/inputs.py [SEED] [SECONDS]

Builds nothing: runs `target/release/hantei` (build it first with
`cargo build --release`) under a 4 GB address-space limit, so that a run
that would take the machine's memory aborts instead, on random commands of
`hantei odds dice`: terms with large and negative numbers, products and
quotients, listed faces far apart, D66, the counting commands (xB, xR,
xU), chains (`->`), named terms, groups, with random tiers, `--exact`,
`--vs`, `--until`, `--push`, `--outcomes-by`, `--outcomes-only` and
`--sweep` (placeholders in the tiers or in the dice, extreme values), and
the game commands (`--game`) with extreme numbers (SECONDS, default 120). Prints
each run with an exit code other than 0 and 2 (a panic: 101; an abort:
134; killed: -9) or past 20 s, with its command and the first line of its
message; timings are the planner's promise and `promise.py`'s to judge.

Not part of CI (.ci/run): it runs for minutes and its programs are random.
The `inputs_*` tests of tests/validation.rs keep each command it found.
"""
import os, random, resource, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
H = os.path.join(ROOT, 'target', 'release', 'hantei')
SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 1
R = random.Random(SEED)


def big():
    return R.choice([0, 1, 2, 7, 10, 99, 1000, 65536, 1000000, 999999999, 1000000000])


def num():
    n = big()
    return f"-{n}" if R.random() < 0.2 else str(n)


def die():
    n = R.choice([0, 1, 1, 2, 3, 6, 10, 20, 50, 100])
    s = R.choice(['2', '6', '10', '20', '100', '66', '1000', '{1,1000000000}',
                  '{-5,0,5}', '{0,0,0}', '{999999999,-999999999}', 'F'])
    m = R.choice(['', '', '!', '!!', 'r1', 'ro1', 'KH1', 'KL2', 'DL1', '!>=2', 'r<=5'])
    return f"{n}D{s}{m}"


def term():
    k = R.random()
    if k < 0.5:
        return die()
    if k < 0.7:
        return num()
    if k < 0.85:
        return '(' + arith(2) + ')'
    return '{' + ','.join(die() for _ in range(R.randint(1, 3))) + '}' + R.choice(['', 'KH1', 'KL1'])


def arith(depth=3):
    e = term()
    for _ in range(R.randint(0, depth)):
        e += R.choice(['+', '-', '*', '/', '*', '+']) + term()
    return e


def named():
    return '+'.join(f"{die()}[n{i}]" for i in range(R.randint(1, 3))) + R.choice(['', '*' + num(), '+' + num()])


def command():
    k = R.random()
    if k < 0.35:
        return arith()
    if k < 0.5:
        return named()
    if k < 0.6:
        return f"{R.choice([1, 5, 50, 1000])}B{R.choice([6, 10, 1000])}{R.choice(['', '>=5', '<=1', '>=1000000000'])}"
    if k < 0.65:
        return f"{R.choice([1, 5, 30])}R{R.choice([6, 10])}[{R.choice([1, 2, 6, 10])}]>={R.choice([1, 5, 11])}"
    if k < 0.7:
        return f"{R.choice([1, 5, 30])}U{R.choice([6, 10])}[{R.choice([1, 2, 6])}]"
    if k < 0.85:
        return f"{die()}{R.choice(['+', '*'])}{num()} -> {R.choice(['>=10', 'natural==1', 'total<=-5'])}: {arith(1)}; {arith(1)}"
    return arith() + R.choice(['>=', '<=', '==', '<>']) + num()


GAMES = [
    ('Cthulhu7th', lambda: R.choice([f"CC({R.choice([-3, 0, 2, 99])})<={num()}", f"CBR({num()},{num()})", f"CC<={num()}"])),
    ('SwordWorld2.5', lambda: R.choice([f"K{R.choice([0, 10, 100, 1000])}+{num()}@{R.choice([2, 3, 8, 13])}", f"2D6@{R.choice([2, 7, 12])}+{num()}>={num()}"])),
    ('DoubleCross', lambda: f"{R.choice([1, 10, 100, 300])}DX{R.choice(['', '+' + num()])}@{R.choice([2, 3, 7, 10, 11])}"),
    ('ShinobiGami', lambda: f"{R.choice(['', '2', '10'])}SG+{num()}@{R.choice([2, 12])}#{R.choice([2, 12])}>={num()}"),
    ('Emoklore', lambda: f"{R.choice([1, 10, 100])}DM<={num()}"),
    ('Arianrhod', lambda: f"{R.choice([1, 20, 200])}D6+{num()}>={num()}"),
    ('LogHorizon', lambda: f"{R.choice([1, 20, 200])}LH+{num()}>={num()}"),
    ('MeikyuKingdom', lambda: f"{R.choice([2, 20, 200])}MK+{num()}>={num()}"),
    ('Nechronica', lambda: f"{R.choice([1, 20, 200])}NC+{num()}"),
    ('NightWizard3rd', lambda: f"{R.choice([0, 5, 99])}NW+{num()}@{R.choice([2, 12])}#{R.choice([2, 12])}>={num()}"),
    ('Satasupe', lambda: f"{R.choice([1, 10, 100])}R>={R.choice([2, 7, 12])}[{R.choice([1, 10])},{R.choice([1, 12])},{R.choice([0, 12])}]"),
    ('Ryutama', lambda: f"R{R.choice([4, 20])},{R.choice([2, 12])}+{num()}>={num()}"),
    ('Amadeus', lambda: f"R{R.choice('SABCD')}+{num()}@{R.choice([2, 6])}>={num()}"),
]


def tiers():
    c = R.choice(['>=10', f'>={num()}', 'count(6)>=2', 'max==6', 'natural>=19', 'min<=-2',
                  'doubles', f'total*{big()}>=5', f'total/{R.choice([1, 3, 1000000000])}==0',
                  'n0>n1', 'n0+n1>=1000000000', 'count(1000000000)>=1'])
    return ['--tier', f'a:{c}', '--tier', 'b']


def swept():
    """Tiers with a placeholder and a --sweep of extreme values."""
    c = R.choice(['>={t}', 'count(6)>={t}', 'max>={t} and doubles', 'natural>={t}',
                  'total*{t}>=5', 'total/({t})==0', 'n0>{t}', '{t}', 'total>={u}'])
    lo = R.choice([-1000000000, -5, 0, 1, 10, 999999999])
    span = R.choice([0, 1, 20, 999, 5000])
    sweep = R.choice([f't={lo}..{lo + span}', f't={lo},{num()}', 't=', 't=5..1', 'x=1..3'])
    return ['--tier', f'a:{c}', '--tier', 'b', '--sweep', sweep]


def dice_swept():
    """A command with one of its numbers written as the placeholder {t}
    (a sweep over the dice), tiers, and a --sweep of extreme values."""
    cmd = command()
    digits = [i for i, ch in enumerate(cmd) if ch.isdigit()]
    if digits:
        i = R.choice(digits)
        j = i
        while j < len(cmd) and cmd[j].isdigit():
            j += 1
        while i > 0 and cmd[i - 1].isdigit():
            i -= 1
        cmd = cmd[:i] + '{t}' + cmd[j:]
    else:
        cmd = '{t}D6'
    c = R.choice(['>=10', 'count(6)>=2', 'max==6', 'total>={t}', 'doubles', 'n0>n1'])
    lo = R.choice([-1000000000, -5, 0, 1, 10, 999999999])
    span = R.choice([0, 1, 20, 999])
    sweep = R.choice([f't={lo}..{lo + span}', f't={lo},{num()}', 't=1..6', 't=0..40'])
    return cmd, ['--tier', f'a:{c}', '--tier', 'b', '--sweep', sweep]


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


found = 0
runs = 0
t_end = time.time() + float(sys.argv[2] if len(sys.argv) > 2 else 120)
while time.time() < t_end:
    if R.random() < 0.15:
        game, cmd = R.choice(GAMES)
        args = [H, 'odds', 'dice', cmd(), '--format', 'json', '--game', game]
    elif R.random() < 0.12:
        cmd, extra = dice_swept()
        args = [H, 'odds', 'dice', cmd, '--format', 'json'] + extra
    else:
        args = [H, 'odds', 'dice', command(), '--format', 'json']
        if R.random() < 0.15:
            args += swept()
        elif R.random() < 0.5:
            args += tiers()
        elif R.random() < 0.3:
            args += ['--outcomes-by', R.choice(['total', 'max', 'count(6)', 'width', 'height', 'n0', 'natural'])]
        if '--tier' in args and R.random() < 0.2:
            args += ['--push', 'b', '--push-dice', R.choice(['2..5', '<6', 'n0:1', '1..1000000000'])]
    if R.random() < 0.15:
        args += ['--exact']
    if R.random() < 0.1:
        args += ['--vs', arith(1)]
    elif R.random() < 0.1:
        args += ['--until', num(), '--rounds', str(R.choice([1, 10, 100]))]
    if '--tier' in args and '--vs' not in args and '--until' not in args and R.random() < 0.3:
        args += ['--outcomes-only']
    s = time.time()
    runs += 1
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=20, preexec_fn=limit)
        rc = p.returncode
        err = (p.stderr.strip().splitlines() or [''])[0][:200]
    except subprocess.TimeoutExpired:
        rc, err = 'TIMEOUT', ''
    d = time.time() - s
    if rc not in (0, 2):
        found += 1
        print(f"BAD rc={rc} {d:.2f}s {' '.join(repr(a) if ' ' in a else a for a in args[1:])}\n    {err}", flush=True)
print(f"seed {SEED}: {runs} runs, {found} bad", flush=True)
