#!/usr/bin/env python3
"""The planner's promise under random programs: an answer within 10 s or a
refusal within 1 s (issue 27, item 4).

    python3 benches/fuzz/promise.py [SEED] [SECONDS]

Builds nothing: runs `target/release/hantei` (build it first with
`cargo build --release`) on random dice programs (terms of 1-200 dice of
2-1000 sides with explosions, rerolls and keep/drop; sums; groups; named
terms; listed faces), with random tiers, `--exact`, `--vs` and
`--outcomes-only` (its own stream, so a seed's programs are those it gave
before that flag was drawn), for SECONDS
(default 300). Prints each run past the promise (BAD: an answer after
10 s, a refusal after 1 s, a timeout of 20 s, or an exit code other than
0 and 2) and each run over 3 s (slow), with its command and message.
Timings are of one process on this machine, and a loaded machine stretches
them: rerun a BAD line alone before reading it as a bug.

Not part of CI (.ci/run): it runs for minutes and its programs are random.
"""
import os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
H = os.path.join(ROOT, 'target', 'release', 'hantei')
R=random.Random(int(sys.argv[1]) if len(sys.argv)>1 else 1)
ALONE=random.Random(1000+(int(sys.argv[1]) if len(sys.argv)>1 else 1))
def die():
    n=R.choice([1,1,2,3,5,8,10,20,30,50,100,200])
    s=R.choice([2,3,4,6,8,10,12,20,100,1000])
    m=R.choice(['','','!','!!','r1','ro1','ri1','!>=5','kh1','kh3','kl2','dl1'])
    if m.startswith('k') or m.startswith('dl'):
        m=m.upper()
    return f"{n}D{s}{m}"
def expr():
    k=R.choice(['one','sum','group','named','custom'])
    if k=='one': return die()
    if k=='sum': return die()+R.choice(['+','-'])+die()
    if k=='group': return '{'+','.join(die() for _ in range(R.randint(2,4)))+'}'+R.choice(['KH1','KL1','KH2',''])
    if k=='named': return '+'.join(f"{die()}[n{i}]" for i in range(R.randint(2,4)))
    return f"{R.choice([1,3,10,40])}D{{1,2,2,3,{R.randint(4,9)}}}"
def tiers():
    c=R.choice(['>=10','count(6)>=2','max==6','natural>=19','count(1)>=1 and max>=5','min<=2','doubles','count(>=5)>=3'])
    return ['--tier',f'a:{c}','--tier','b']
worst=[]
t_end=time.time()+float(sys.argv[2] if len(sys.argv)>2 else 300)
while time.time()<t_end:
    e=expr(); args=[H,'odds','dice',e,'--format','json']
    if R.random()<0.6: args+=tiers()
    if R.random()<0.2: args+=['--exact']
    if R.random()<0.1: args+=['--vs',die()]
    if '--tier' in args and '--vs' not in args and ALONE.random()<0.5: args+=['--outcomes-only']
    s=time.time()
    try:
        p=subprocess.run(args,capture_output=True,text=True,timeout=20)
        rc=p.returncode; err=p.stderr.strip()[:160]
    except subprocess.TimeoutExpired:
        rc='TIMEOUT'; err=''
    d=time.time()-s
    bad = rc=='TIMEOUT' or (rc==0 and d>10) or (rc==2 and d>1) or (rc not in (0,2))
    if bad or d>3:
        print(f"{'BAD' if bad else 'slow'} rc={rc} {d:.2f}s {' '.join(args[3:])} :: {err}",flush=True)
