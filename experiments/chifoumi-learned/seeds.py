#!/usr/bin/env python3
"""Match seeds of experiments/chifoumi-learned: the new runs' seeds must be fresh.

A Chifoumi match or tournament run with seed s plays its pair p's matches 2k and 2k+1 on the
seed mix2(s, p + 1, k); the trainer plays iteration i's match k on mix2(seed, i, 1 + k) and its
evaluation of fixed opponent o on mix2(seed ^ 0xe7a1, i, o << 32 | k / 2) (pjlab_core::seed,
crates/chifoumi-eval/src/spec.rs, crates/chifoumi-learn/src/train.rs). This recomputes every seed
the earlier runs used and checks that none of fresh/run.sh's and held-out/run.sh's is among
them. It also counts the seeds the earlier runs share with one another, and compares the
learned player's round-robin score on the seeds its training played with its score on the others
(needs pyarrow).

    python3 experiments/chifoumi-learned/seeds.py
"""
import sys
from pathlib import Path
from collections import Counter

M = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
D = 0xD1B54A32D192ED03


def finalize(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def mix2(s, a, b):
    return finalize(s ^ ((a * GOLDEN) & M) ^ ((b * D) & M))


def run_seeds(seed, pairs, matches):
    """A match (1 pair) or tournament run's match seeds."""
    return {mix2(seed, p + 1, k // 2) for p in range(pairs) for k in range(matches)}


def train_seeds(seed, iterations, per_iteration=96, opponents=10, eval_matches=20):
    """A training run's match and evaluation seeds (eval_every ignored: every iteration counted)."""
    play = {mix2(seed, i, 1 + k) for i in range(1, iterations + 1) for k in range(per_iteration)}
    ev = {
        mix2(seed ^ 0xE7A1, i, (o << 32) | (k // 2))
        for i in range(iterations + 1)
        for o in range(opponents)
        for k in range(eval_matches)
    }
    return play | ev


old = {
    "round robin (seed 1, 55 pairs x 300)": run_seeds(1, 55, 300),
    "goal second stage (seed 3, 1000)": run_seeds(3, 1, 1000),
    "versus ismcts (seed 1, 200)": run_seeds(1, 1, 200),
    # The original, the best response and the held-out training all have seed 1.
    "training (seed 1, 1500 iterations)": train_seeds(1, 1500),
    "best-response training (seed 1, 400 iterations, evaluations of 200 matches)": train_seeds(1, 400, eval_matches=200),
}
new = {}
for s in range(101, 111):
    new[f"fresh seed {s}"] = run_seeds(s, 1, 1000)
new["fresh seed 111 (ismcts)"] = run_seeds(111, 1, 400)
new["held-out seed 201"] = run_seeds(201, 1, 1000)
for s in range(202, 211):
    new[f"held-out seed {s}"] = run_seeds(s, 1, 300)
new["held-out seed 211 (ismcts)"] = run_seeds(211, 1, 200)

used = set().union(*old.values())
bad = 0
names = list(new)
for i, n in enumerate(names):
    hit = len(new[n] & used)
    for m in names[i + 1:]:
        hit += len(new[n] & new[m])
    bad += hit
    print(f"{n}: {len(new[n])} seeds, {hit} shared with an earlier run or another new run")
print()
print("seeds the earlier runs share:")
onames = list(old)
for i, n in enumerate(onames):
    for m in onames[i + 1:]:
        c = len(old[n] & old[m])
        if c:
            print(f"  {n} and {m}: {c}")


def shared_deals():
    """The round robin's matches of the learned player on seeds its training also played (the
    same deal and draws) against the others: its score on each part."""
    import pyarrow.parquet as pq

    net = "net:checkpoint=experiments/chifoumi-learned/final"
    train = train_seeds(1, 1500, opponents=0)
    rows = pq.read_table(Path(__file__).parent / "round-robin/matches.parquet").to_pylist()
    acc = {True: [0, 0.0], False: [0, 0.0]}
    for r in rows:
        if net not in (r["player_0"], r["player_1"]):
            continue
        res = r["result"] if r["player_0"] == net else -r["result"]
        part = acc[r["seed"] in train]
        part[0] += 1
        part[1] += {1: 1.0, 0: 0.5, -1: 0.0}[res]
    print("\nthe learned player's round-robin matches (result per match: 1, 1/2, 0):")
    for k, label in ((True, "on seeds its training played"), (False, "on the other seeds")):
        n, s = acc[k]
        print(f"  {label}: {n} matches, score {100 * s / n:.1f}%")


shared_deals()
if bad:
    sys.exit(f"{bad} new seeds are not fresh")
print("\nevery new seed is fresh")
