"""The medians of bench.jsonl (written by run.sh): one row a figure, one column a build, and
each build's ratio to the default build's median.

    python3 experiments/burn-features/summary.py experiments/burn-features/bench.jsonl
"""

import json
import statistics
import sys

FIGURES = [
    ("train_samples_per_second", "training steps, batch 256 (samples/s)"),
    ("net_burn_batch1_positions_per_second", "Burn forward, batch 1 (positions/s)"),
    ("net_burn_batch32_positions_per_second", "Burn forward, batch 32 (positions/s)"),
    ("net_burn_batch128_positions_per_second", "Burn forward, batch 128 (positions/s)"),
    ("chifoumi_training_decisions_per_second", "Chifoumi training (decisions/s)"),
    ("net_batch32_positions_per_second", "control: packed kernel, batch 32 (positions/s)"),
    ("selfplay64_positions_per_second", "control: self-play, 64 simulations (positions/s)"),
    ("alphabeta_nodes_per_second", "control: alpha-beta (nodes/s)"),
]
BUILDS = ["default", "simd-rayon", "simd-rayon-1thread"]


def main(path):
    runs = [json.loads(line) for line in open(path) if line.strip()]
    rounds = max(r["round"] for r in runs)
    values = {
        (b, key): [r["figures"][key] for r in runs if r["build"] == b and key in r["figures"]]
        for b in BUILDS
        for key, _ in FIGURES
    }
    print(f"Medians over {rounds} rounds (each run the median of 3 timings); the ratio to the")
    print("default build's median in brackets; each build's lowest and highest run after a slash.\n")
    print("| figure | " + " | ".join(BUILDS) + " |")
    print("|---|" + "---|" * len(BUILDS))
    for key, name in FIGURES:
        base = values[("default", key)]
        if not base:
            continue
        base_median = statistics.median(base)
        cells = []
        for b in BUILDS:
            v = values[(b, key)]
            if not v:
                cells.append("-")
                continue
            m = statistics.median(v)
            cells.append(
                f"{m:,.0f} ({m / base_median:.2f}) / {min(v):,.0f}-{max(v):,.0f}"
            )
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
