#!/usr/bin/env python3
"""The goal's two-stage rule: pooled figures and its real error rate.

The rule (../run.sh): the learned player beats a scripted player when the 95% Wilson interval
of its match score lies above 50% over the round robin's 300 matches (stage 1); the pairs whose
interval contains 50% are played again, 1000 fresh matches (stage 2), and are declared beaten
when that interval lies above 50%. A match won counts 1, drawn 1/2; the interval is
pjlab_stats::wilson(wins + draws / 2, matches) (crates/stats/src/stats/mod.rs), repeated below.

This prints
  1. each pair's stage 1, stage 2 and pooled (stage 1 + stage 2) figures, from the committed
     reports (round-robin/report.md's pairs, goal/*/report.md);
  2. the rule's error rate: the probability that a pair whose true expected match score is
     exactly 50% is declared "interval above 50%", at each pair's observed draw rate (every
     match of the pair, both stages). A null pair wins and loses a match with probability
     (1 - d) / 2 each and draws it with probability d; a stage's score in half points is the sum
     of n independent matches' 0, 1 or 2, whose distribution is computed exactly by convolution
     (float64). Two readings of "played again": (A) every pair not declared at stage 1 gets
     stage 2 (the closed form for independent stages, a1 + (1 - a1) a2); (B) only the pairs whose
     interval contains 50% (what run.sh did: a stage-1 interval below 50% ends it),
     a1 + (1 - a1 - b1) a2, where b1 is the probability of an interval below 50%. Family-wise
     over the ten pairs, all null and independent (each pair's matches have their own seeds):
     1 - prod(1 - r_i). A seeded Monte Carlo of the whole procedure checks both.

    python3 experiments/chifoumi-learned/error-rate.py [REPETITIONS=1000000]
"""
import math
import re
import sys
from pathlib import Path

import numpy as np

Z95 = 1.959_963_984_540_054
HERE = Path(__file__).resolve().parent
NET = "net:checkpoint=experiments/chifoumi-learned/final"
# The order of the round robin's pairs table (ranked by the opponents' scores there).
OPPONENTS = ["counter-reset", "counter", "lurker", "observer", "greedy", "random",
             "focused:F", "focused:C", "avoider", "focused:P"]


def wilson(successes, n):
    """pjlab_stats::wilson: the 95% Wilson interval of successes out of n (arrays allowed)."""
    z2 = Z95 * Z95
    p = successes / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.maximum(centre - half, 0.0), np.minimum(centre + half, 1.0)


def wdl(text):
    w, d, l = (int(x) for x in text.split("-"))
    return w, d, l


def stage1():
    """The learned player's W-D-L against each opponent in the round robin."""
    rows = {}
    for line in (HERE / "round-robin/report.md").read_text().splitlines():
        m = re.match(r"\| (\S+) vs (\S+) \| (\d+) \| (\d+-\d+-\d+) \|", line)
        if m and NET in (m[1], m[2]):
            w, d, l = wdl(m[4])
            if m[1] == NET:
                rows[m[2]] = (w, d, l)
            else:
                rows[m[1]] = (l, d, w)
    return rows


def stage2(opponent):
    """The learned player's W-D-L in goal/OPPONENT, or None when the pair was not replayed."""
    path = HERE / "goal" / opponent / "report.md"
    if not path.exists():
        return None
    for line in path.read_text().splitlines():
        if line.startswith(f"| {NET} |"):
            return wdl(line.split("|")[3].strip())
    raise SystemExit(f"{path}: no row for {NET}")


def fmt(w, d, l):
    n = w + d + l
    lo, hi = wilson((w + d / 2), n)
    above = "yes" if lo > 0.5 else "no"
    return f"{n} | {w}-{d}-{l} | {100 * (w + d / 2) / n:.1f} | {100 * lo:.1f} to {100 * hi:.1f} | {above}"


def score_pmf(n, d):
    """Distribution of a null stage's score in half points (0..2n): n matches of 0/1/2."""
    one = np.array([(1 - d) / 2, d, (1 - d) / 2])
    out = np.array([1.0])
    base, k = one, n
    while k:  # powers by squaring
        if k & 1:
            out = np.convolve(out, base)
        k >>= 1
        if k:
            base = np.convolve(base, base)
    return out


def stage_rates(n, d):
    """(P(interval above 50%), P(interval below 50%)) for a null pair over n matches."""
    pmf = score_pmf(n, d)
    halves = np.arange(2 * n + 1)
    lo, hi = wilson(halves / 2, n)
    return float(pmf[lo > 0.5].sum()), float(pmf[hi < 0.5].sum())


def simulate(draws, reps, rng):
    """Monte Carlo of the procedure for null pairs with these draw rates: per pair, the share of
    repetitions declared under rules A and B, and the family-wise shares (any pair declared)."""
    any_a = np.zeros(reps, bool)
    any_b = np.zeros(reps, bool)
    per = []
    for d in draws:
        p = [(1 - d) / 2, d, (1 - d) / 2]
        s1 = rng.multinomial(300, p, size=reps)
        s2 = rng.multinomial(1000, p, size=reps)
        lo1, hi1 = wilson(s1[:, 0] + s1[:, 1] / 2, 300)
        lo2, _ = wilson(s2[:, 0] + s2[:, 1] / 2, 1000)
        dec_a = (lo1 > 0.5) | (lo2 > 0.5)
        dec_b = (lo1 > 0.5) | ((hi1 >= 0.5) & (lo2 > 0.5))
        any_a |= dec_a
        any_b |= dec_b
        per.append((dec_a.mean(), dec_b.mean()))
    return per, any_a.mean(), any_b.mean()


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    s1 = stage1()
    if sorted(s1) != sorted(OPPONENTS):
        raise SystemExit(f"round-robin/report.md: opponents {sorted(s1)}")
    print("## The learned player's matches by stage\n")
    print("| opponent | stage | matches | W-D-L | score % | 95% interval | above 50% |")
    print("|---|---|---|---|---|---|---|")
    draws = []
    for o in OPPONENTS:
        a = s1[o]
        b = stage2(o)
        print(f"| {o} | 1 (seed 1) | {fmt(*a)} |")
        if b:
            print(f"| {o} | 2 (seed 3) | {fmt(*b)} |")
            pooled = tuple(x + y for x, y in zip(a, b))
            print(f"| {o} | 1 + 2 pooled | {fmt(*pooled)} |")
        else:
            pooled = a
        draws.append(pooled[1] / sum(pooled))
    print("\nThe pooled interval is the plain Wilson interval of the 1300 matches; it does not"
          " account for the selection of the pairs replayed.\n")

    print("## Error rate of the two-stage rule, exact\n")
    print("Null pair: true expected match score exactly 50%, draw rate d (the pair's observed rate"
          " over all its matches). a1, b1: P(interval above, below 50%) over 300 matches; a2 over"
          " 1000. Rule A: a1 + (1 - a1) a2 (stage 2 whenever stage 1 does not declare); rule B:"
          " a1 + (1 - a1 - b1) a2 (stage 2 only when the interval contains 50%, as run.sh did).\n")
    print("| opponent | d | a1 % | b1 % | a2 % | rule A % | rule B % |")
    print("|---|---|---|---|---|---|---|")
    ra, rb = [], []
    for o, d in zip(OPPONENTS, draws):
        a1, b1 = stage_rates(300, d)
        a2, _ = stage_rates(1000, d)
        ra.append(a1 + (1 - a1) * a2)
        rb.append(a1 + (1 - a1 - b1) * a2)
        print(f"| {o} | {d:.3f} | {100 * a1:.3f} | {100 * b1:.3f} | {100 * a2:.3f} |"
              f" {100 * ra[-1]:.3f} | {100 * rb[-1]:.3f} |")
    fw_a = 1 - np.prod([1 - r for r in ra])
    fw_b = 1 - np.prod([1 - r for r in rb])
    one_a = 1 - np.prod([1 - stage_rates(300, d)[0] for d in draws])
    print(f"\nFamily-wise, ten null pairs: rule A {100 * fw_a:.2f}%, rule B {100 * fw_b:.2f}%"
          f" (a single stage of 300 matches: {100 * one_a:.2f}%).")
    print("Range over draw rates 0 to 0.3 (one pair):")
    for d in (0.0, 0.1, 0.2, 0.3):
        a1, b1 = stage_rates(300, d)
        a2, _ = stage_rates(1000, d)
        print(f"  d = {d:.1f}: a1 {100 * a1:.3f}%, a2 {100 * a2:.3f}%,"
              f" rule A {100 * (a1 + (1 - a1) * a2):.3f}%, rule B {100 * (a1 + (1 - a1 - b1) * a2):.3f}%")

    print(f"\n## Monte Carlo check: {reps} repetitions of the whole procedure, seed 2026\n")
    rng = np.random.default_rng(2026)
    per, mc_a, mc_b = simulate(draws, reps, rng)
    se = lambda p: math.sqrt(p * (1 - p) / reps)
    worst = 0.0
    print("| opponent | rule A % (exact) | rule A % (MC ± 1 se) | rule B % (exact) | rule B % (MC ± 1 se) |")
    print("|---|---|---|---|---|")
    for o, (pa, pb), ea, eb in zip(OPPONENTS, per, ra, rb):
        worst = max(worst, abs(pa - ea) / se(ea), abs(pb - eb) / se(eb))
        print(f"| {o} | {100 * ea:.3f} | {100 * pa:.3f} ± {100 * se(ea):.3f} | {100 * eb:.3f} |"
              f" {100 * pb:.3f} ± {100 * se(eb):.3f} |")
    print(f"\nFamily-wise: rule A exact {100 * fw_a:.2f}%, MC {100 * mc_a:.2f}% ± {100 * se(fw_a):.2f};"
          f" rule B exact {100 * fw_b:.2f}%, MC {100 * mc_b:.2f}% ± {100 * se(fw_b):.2f}.")
    worst = max(worst, abs(mc_a - fw_a) / se(fw_a), abs(mc_b - fw_b) / se(fw_b))
    print(f"Largest gap between exact and Monte Carlo: {worst:.2f} standard errors.")
    if worst > 5:
        raise SystemExit("the Monte Carlo disagrees with the exact computation")


if __name__ == "__main__":
    main()
