#!/usr/bin/env python3
"""What each means of making a neural Pijersi player bought, in Elo against the lab's
alpha-beta at 100 ms a move per CPU-hour of training: reads points.csv (which run, how much
training, which match report), takes each match's Elo difference from its report.md, and writes
results.csv and chart.svg beside this script. Standard library only.

    python3 experiments/elo-per-cpu-hour/chart.py

CPU-hours (2 cores of the AMD EPYC reference machine count 2 CPU-hours an hour):
- self-play MCTS network: 640 iterations took 82 minutes of wall time on both cores
  (../pijersi-vs-alphabeta/README.md), so iteration k costs k * 82 / 640 * 2 / 60 CPU-hours;
- the long self-play run (../mcts-strongest/, value labels half from the learned evaluation
  `sweep-r3-lr-0.0001`, deeper self-play searches, the tuned search at play): iteration k costs
  k times 2 cores times the median wall time of its iterations 501 to 1,500, the stretch it ran
  on an otherwise idle machine (computed here from its carried metrics.jsonl); the wall time it
  logged over all its iterations, paused ones left out, gives an upper bound (printed). The
  learned evaluation its labels come from is not charged;
- learned evaluation in alpha-beta: its training positions come from depth-4 alpha-beta
  self-play, which cost 2 * (587 + 647) CPU-seconds for 22,850 + 34,698 positions in the two
  data runs whose logs give their times (../nnue-first/logs/data-d4-s1.log, data-d4-s5.log,
  2 workers), 0.0429 CPU-seconds a position; every position a network's data files hold is
  charged (the quiet network trains on the quiet subset of its 167,288), plus its training
  seconds from its card.
"""

from __future__ import annotations

import csv
import json
import math
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPERIMENTS = HERE.parent
MCTS_CPU_HOURS_PER_ITERATION = 82 / 640 * 2 / 60
LONG_RUN = "self-play MCTS network: long run (half its value labels from the learned evaluation)"
LONG_RUN_METRICS = EXPERIMENTS / "mcts-strongest" / "carry" / "metrics.jsonl"
DATA_CPU_SECONDS_PER_POSITION = 2 * (587 + 647) / (22850 + 34698)


def elo_of(report: Path, agent: str) -> tuple[int, int, str, str]:
    """The Elo difference, its half-width, W-D-L and score of ``agent``'s head-to-head row."""
    for line in report.read_text().splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] == agent and "±" in cells[6]:
            diff, half = cells[6].split("±")
            return int(diff.replace("+", "")), int(half), cells[3], cells[4]
    raise SystemExit(f"{report}: no head-to-head row for {agent}")


def iteration_seconds() -> list[float]:
    """The long run's wall seconds of each iteration (self-play, training, evaluation)."""
    rows = [json.loads(line) for line in LONG_RUN_METRICS.read_text().splitlines() if line.strip()]
    return [r["selfplay_s"] + r["train_s"] + r["eval_s"] for r in rows]


def long_run_cpu_hours_per_iteration() -> float:
    """2 cores times the median wall time of iterations 501 to 1,500, in hours."""
    return 2 * statistics.median(iteration_seconds()[500:1500]) / 3600


def long_run_upper_bound(iterations: int) -> float:
    """CPU-hours of the first ``iterations`` by the wall time logged: an iteration over three
    times the median of its 51 neighbours (the run paused by a match) counted as that median."""
    t = iteration_seconds()
    total = 0.0
    for i, v in enumerate(t[:iterations]):
        m = statistics.median(t[max(0, i - 25) : i + 26])
        total += m if v > 3 * m else v
    return 2 * total / 3600


def cpu_hours(row: dict[str, str]) -> float:
    if row["means"] == LONG_RUN:
        return int(row["iterations"]) * long_run_cpu_hours_per_iteration()
    if row["iterations"]:
        return int(row["iterations"]) * MCTS_CPU_HOURS_PER_ITERATION
    seconds = int(row["positions"]) * DATA_CPU_SECONDS_PER_POSITION + float(row["train_seconds"])
    return seconds / 3600


def svg(points: list[dict[str, object]]) -> str:
    # The legend sits under the axis title, one line a series, so that long names fit; the
    # right margin holds the dashed lines' labels.
    width, height, left, right, top, bottom = 900, 520, 70, 170, 30, 140
    # The x axis reaches the next whole CPU-hour past the costliest point (8 at the least).
    x_max = float(max(8, math.ceil(max(float(p["cpu_hours"]) for p in points))))
    y_min, y_max = -320.0, 250.0

    def x(v: float) -> float:
        return left + (width - left - right) * v / x_max

    def y(v: float) -> float:
        return top + (height - top - bottom) * (y_max - v) / (y_max - y_min)

    colours = {
        "self-play MCTS network": "#1f77b4",
        LONG_RUN: "#e66100",
        "learned evaluation in alpha-beta": "#d62728",
        "learned evaluation in alpha-beta (integers: 1.53x the nodes a second)": "#2ca02c",
    }
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{(left + width - right) / 2}" y="18" text-anchor="middle" font-size="14">'
        "Pijersi: Elo against alpha-beta at 100 ms a move, by CPU-hours of training</text>",
    ]
    for v in range(-300, 201, 50):
        out.append(f'<line x1="{left}" x2="{x(x_max)}" y1="{y(v)}" y2="{y(v)}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4}" text-anchor="end">{v:+d}</text>'.replace("+0", "0"))
    for v in range(0, int(x_max) + 1):
        out.append(f'<line x1="{x(v)}" x2="{x(v)}" y1="{y(y_min)}" y2="{y(y_max)}" stroke="#eee"/>')
        out.append(f'<text x="{x(v)}" y="{y(y_min) + 18}" text-anchor="middle">{v}</text>')
    out.append(f'<text x="{x(x_max / 2)}" y="{y(y_min) + 40}" text-anchor="middle">CPU-hours of training (data included)</text>')
    out.append(f'<text transform="translate(18,{y((y_min + y_max) / 2)}) rotate(-90)" text-anchor="middle">Elo difference (ML, 95%)</text>')
    for level, label, dash in [(0, "level with alpha-beta", "4 3"), (35, "55% (the goal)", "8 3")]:
        out.append(f'<line x1="{left}" x2="{x(x_max)}" y1="{y(level)}" y2="{y(level)}" stroke="#555" stroke-dasharray="{dash}"/>')
        out.append(f'<text x="{x(x_max) + 6}" y="{y(level) + 4}">{label}</text>')
    for means, colour in colours.items():
        series = sorted((p for p in points if p["means"] == means), key=lambda p: p["cpu_hours"])
        shift = 0.05 if "integers" in means else 0.0
        path = " ".join(f'{x(p["cpu_hours"] + shift):.1f},{y(p["elo"]):.1f}' for p in series)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-opacity="0.5"/>')
        # The integer search is the same training as the float one: drawn a little to the right.
        shift = 0.05 if "integers" in means else 0.0
        for p in series:
            cx = x(p["cpu_hours"] + shift)
            lo, hi = y(p["elo"] - p["half"]), y(p["elo"] + p["half"])
            out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{lo:.1f}" y2="{hi:.1f}" stroke="{colour}"/>')
            out.append(f'<circle cx="{cx:.1f}" cy="{y(p["elo"]):.1f}" r="3.5" fill="{colour}"><title>{p["label"]}: {p["elo"]:+d} ± {p["half"]} Elo, {p["cpu_hours"]:.2f} CPU-hours</title></circle>')
    for k, (means, colour) in enumerate(colours.items()):
        ly = y(y_min) + 65 + 18 * k
        out.append(f'<circle cx="{left + 6}" cy="{ly}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{left + 16}" y="{ly + 4}">{means}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    points = []
    with open(HERE / "points.csv", newline="") as f:
        for row in csv.DictReader(f):
            elo, half, wdl, score = elo_of(EXPERIMENTS / row["report"], row["agent"])
            points.append(
                {
                    "means": row["means"],
                    "label": row["label"],
                    "cpu_hours": cpu_hours(row),
                    "elo": elo,
                    "half": half,
                    "wdl": wdl,
                    "score": score,
                    "report": row["report"],
                }
            )
    with open(HERE / "results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["means", "label", "cpu_hours", "elo", "elo_half_width", "wdl", "score_pct", "report"])
        for p in points:
            w.writerow([p["means"], p["label"], f'{p["cpu_hours"]:.3f}', p["elo"], p["half"], p["wdl"], p["score"], p["report"]])
    (HERE / "chart.svg").write_text(svg(points))
    for p in points:
        print(f'{p["means"]:34} {p["label"]:24} {p["cpu_hours"]:6.3f} CPU-h  {p["elo"]:+4d} ± {p["half"]}')
    per = long_run_cpu_hours_per_iteration()
    print(f"long run: {per * 3600:.2f} CPU-seconds an iteration (2 x the median of 501-1500)")
    for p in points:
        if p["means"] == LONG_RUN:
            k = round(p["cpu_hours"] / per)
            print(f"long run {p['label']}: upper bound {long_run_upper_bound(k):.2f} CPU-hours")


if __name__ == "__main__":
    main()
