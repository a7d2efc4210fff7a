#!/usr/bin/env python3
"""How far the equal-time figures of this directory carry: tests on the committed reports'
W-D-L counts (each report is written again from its games.parquet by the experiments test).
Standard library only; prints what evidence.txt holds.

    python3 experiments/neural-strongest/evidence.py > experiments/neural-strongest/evidence.txt

Every test counts each distinct game's score (a win 1, a draw 1/2) once and uses the normal
approximation:
- against a score p0: z = (points - n p0) / sqrt(n p0 (1 - p0)), one-sided;
- the six learned-evaluation configurations played at 100 ms a move against
  `alphabeta:time=100ms` (listed below, from ../nnue-first/ and this directory): the best one's
  one-sided p against 50% multiplied by six (Bonferroni);
- two rounds compared (the speed step): z = (s2 - s1) / sqrt(s (1 - s) (1/n1 + 1/n2)), s the
  two rounds' pooled score, two-sided (one-sided beside it).
"""

from __future__ import annotations

import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPERIMENTS = HERE.parent
OPPONENT = "alphabeta:time=100ms"

# The learned-evaluation configurations played at 100 ms a move against OPPONENT, each with the
# reports of its matches (a pool's report where one was written).
CONFIGURATIONS = [
    ("net-32, float, first round", ["nnue-first/match-net32-100ms"]),
    ("root-32r-es, float", ["nnue-first/match-root-32r-es-100ms"]),
    (
        "all-32r-es, float",
        ["nnue-first/match-all-32r-es-100ms", "nnue-first/match-all-32r-es-100ms-seed2"],
    ),
    ("all5-32r-es, float", ["nnue-first/match-all5-32r-es-100ms"]),
    ("all6-32r-quiet, float (nnue)", ["neural-strongest/pool-100ms"]),
    ("all6-32r-quiet, integers (nnue-int)", ["neural-strongest/pool-100ms-int"]),
]


def rows(report: Path) -> list[list[str]]:
    """Every table row of a report, its cells without Markdown marks."""
    out = []
    for line in report.read_text().splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            out.append([c.strip().strip("`") for c in line.strip().strip("|").split("|")])
    return out


def wdl(cell: str) -> tuple[int, int, int]:
    w, d, l = (int(x) for x in cell.split("-"))
    return w, d, l


def head_to_head(run: str, opponent: str = OPPONENT) -> tuple[int, int, int]:
    """The learned side's W-D-L against ``opponent`` in a report's head-to-head table."""
    for r in rows(EXPERIMENTS / run / "report.md"):
        if len(r) == 7 and r[1] == opponent and r[0] != opponent and "±" in r[6]:
            return wdl(r[3])
    raise SystemExit(f"{run}: no head-to-head row against {opponent}")


def by_variant(run: str) -> dict[str, tuple[int, int, int]]:
    """The learned side's W-D-L by setup variant (the report's "by variant" table)."""
    out = {}
    for r in rows(EXPERIMENTS / run / "report.md"):
        if len(r) == 5 and r[0] in ("half-random", "classic") and r[2].count("-") == 2:
            out.setdefault(r[0], wdl(r[2]))
    return out


def upper_tail(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def against(counts: tuple[int, int, int], p0: float) -> float:
    """One-sided p of a score at least this high if the true score were p0."""
    w, d, l = counts
    n = w + d + l
    return upper_tail((w + d / 2 - n * p0) / math.sqrt(n * p0 * (1 - p0)))


def score(counts: tuple[int, int, int]) -> tuple[float, int]:
    w, d, l = counts
    return (w + d / 2) / (w + d + l), w + d + l


def line(label: str, counts: tuple[int, int, int]) -> str:
    s, n = score(counts)
    w, d, l = counts
    return (
        f"{label}: {n} games, {w}-{d}-{l}, {100 * s:.1f}%; one-sided p against 50% "
        f"{against(counts, 0.5):.4f}, against 55% {against(counts, 0.55):.2f}"
    )


def main() -> None:
    print("The six learned-evaluation configurations at 100 ms against alphabeta:time=100ms")
    pooled = {}
    for label, runs in CONFIGURATIONS:
        total = [0, 0, 0]
        for run in runs:
            counts = head_to_head(run)
            total = [a + b for a, b in zip(total, counts)]
        pooled[label] = tuple(total)
        print("  " + line(label + " (" + ", ".join(runs) + ")", pooled[label]))
    best = max(pooled, key=lambda k: score(pooled[k])[0])
    p = against(pooled[best], 0.5)
    print(
        f"Best: {best}; one-sided p against 50% {p:.4f}, times {len(CONFIGURATIONS)} "
        f"configurations (Bonferroni) {min(1.0, len(CONFIGURATIONS) * p):.3f}; two-sided "
        f"{min(1.0, 2 * p):.4f}, times {len(CONFIGURATIONS)} {min(1.0, 2 * len(CONFIGURATIONS) * p):.3f}"
    )
    print()
    print("The pooled figures and their setup variants")
    for run, opponent in [
        ("neural-strongest/pool-100ms-int", OPPONENT),
        ("neural-strongest/pool-1s-int", "alphabeta:time=1000ms"),
    ]:
        print("  " + line(run, head_to_head(run, opponent)))
        for variant, c in by_variant(run).items():
            print("    " + line(variant, c))
    print()
    first = pooled["all6-32r-quiet, float (nnue)"]
    second = pooled["all6-32r-quiet, integers (nnue-int)"]
    (s1, n1), (s2, n2) = score(first), score(second)
    s = (s1 * n1 + s2 * n2) / (n1 + n2)
    z = (s2 - s1) / math.sqrt(s * (1 - s) * (1 / n1 + 1 / n2))
    print(
        f"The speed step (float {100 * s1:.1f}% over {n1} games, integers {100 * s2:.1f}% over "
        f"{n2}): {100 * (s2 - s1):+.1f} points, z = {z:.2f}, two-sided p {2 * upper_tail(z):.2f}, "
        f"one-sided {upper_tail(z):.3f}"
    )


if __name__ == "__main__":
    main()
