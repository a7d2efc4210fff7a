#!/usr/bin/env python3
"""Time the network's forward pass on one thread: onnxruntime beside `pjlab bench`, in one run.

    pip install onnxruntime numpy
    cargo build --release -p pjlab-cli
    python3 scripts/bench-inference.py --cpu 0

exports the model of experiments/pijersi-vs-alphabeta (or takes `--model model.onnx`), then
alternates, `--rounds` times, onnxruntime's forward pass at batch 1, 32 and 128 with
`pjlab bench --forward-only --json`, and prints the medians over the rounds side by side (each
round's figure is itself the median of `--repeat` timed runs, as `pjlab bench` takes them).

One thread for both. onnxruntime: intra_op_num_threads = inter_op_num_threads = 1. pjlab: the
forward pass uses no threads (the packed network is single-threaded; Burn's `flex` backend is
built without its `rayon` feature, so its matmul runs on the calling thread), and
RAYON_NUM_THREADS=1 is set for the child anyway. `--cpu N` pins this process, and so the
`pjlab` child, to core N.

What each row times:
- onnxruntime: `session.run` on inputs already encoded (the classic start's input from
  `pjlab encode`, repeated: a dense Gemm's time does not depend on the values);
- pjlab packed, no encoding (`net_bare_batch*`): the evaluator's network on encoded positions
  of seeded random games, all 3,748 policy logits and the 3 value logits (the row to compare);
- pjlab evaluator with encoding (`net_batch*`): the same plus encoding the positions and
  allocating the outputs (`NetEvaluator::forward`);
- pjlab Burn, no encoding (`net_burn_batch*`): Burn's forward pass, as training runs it, with
  the outputs copied out as the evaluator did before it had the packed network;
- pjlab search evaluation (`net_legal_batch*`): what MCTS asks for: encoding, only the legal
  moves' policy logits (175 a position on average here), the legal softmax and the value;
- pjlab packed, AVX2 kernels (`net_avx2_batch*`): the first pjlab row on AVX2 and FMA even where
  the CPU has AVX-512, so that one run shows what the wider kernels buy. The line
  `pjlab packed kernels:` above the table names the instruction set the other packed rows ran
  on (`net_kernel`; Burn's row runs Burn's own kernels).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort

BATCHES = (1, 32, 128)
START = "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1"
PJLAB_ROWS = (
    ("net_bare_batch{}_positions_per_second", "pjlab packed, no encoding"),
    ("net_batch{}_positions_per_second", "pjlab evaluator, with encoding"),
    ("net_burn_batch{}_positions_per_second", "pjlab Burn, no encoding"),
    ("net_legal_batch{}_positions_per_second", "pjlab search evaluation (legal)"),
    ("net_avx2_batch{}_positions_per_second", "pjlab packed, AVX2 kernels"),
)


def ort_figures(session, row, repeat):
    """Positions per second at each batch: the median of `repeat` runs of 4096 positions."""
    figures = {}
    for batch in BATCHES:
        x = np.repeat(row[None, :], batch, axis=0)
        calls = max(4096 // batch, 8)
        for _ in range(5):
            session.run(None, {"input": x})
        runs = []
        for _ in range(repeat):
            started = time.perf_counter()
            for _ in range(calls):
                session.run(None, {"input": x})
            runs.append(calls * batch / (time.perf_counter() - started))
        figures[batch] = statistics.median(runs)
    return figures


def pjlab_figures(pjlab, repeat):
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    out = subprocess.run(
        [pjlab, "bench", "--forward-only", "--json", "-q", "--repeat", str(repeat)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="an exported model (default: export --checkpoint)")
    parser.add_argument(
        "--checkpoint", default="experiments/pijersi-vs-alphabeta/checkpoint"
    )
    parser.add_argument("--pjlab", default="target/release/pjlab")
    parser.add_argument("--rounds", type=int, default=5, help="alternations of the two")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure")
    parser.add_argument("--cpu", type=int, help="pin both to this core")
    args = parser.parse_args()

    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            model = os.path.join(tmp, "model.onnx")
            subprocess.run(
                [args.pjlab, "export", "--checkpoint", args.checkpoint, "--out", model],
                check=True,
                capture_output=True,
            )
        encoded = subprocess.run(
            [args.pjlab, "encode", "--psn", START], check=True, capture_output=True, text=True
        ).stdout
        row = np.asarray(json.loads(encoded)["input"], dtype=np.float32)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])

        load_before = os.getloadavg()
        ort_runs, pjlab_runs = [], []
        for r in range(args.rounds):
            # Alternate which goes first, so a drift in the machine's load hits both alike.
            steps = [
                lambda: ort_runs.append(ort_figures(session, row, args.repeat)),
                lambda: pjlab_runs.append(pjlab_figures(args.pjlab, args.repeat)),
            ]
            for step in steps if r % 2 == 0 else reversed(steps):
                step()
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
        load_after = os.getloadavg()

    def cell(values):
        return f"{statistics.median(values):>9.0f} ({min(values):.0f}-{max(values):.0f})"

    print(
        f"positions per second, one thread, medians of {args.rounds} alternating rounds "
        f"(min-max), each round the median of {args.repeat} runs"
    )
    pinned = f"pinned to core {args.cpu}" if args.cpu is not None else "not pinned"
    print(f"pjlab packed kernels: {pjlab_runs[0].get('net_kernel', 'not reported')}")
    print(
        f"onnxruntime {ort.__version__}, {pinned}, load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    print(f"{'':34}" + "".join(f"{'batch ' + str(b):>26}" for b in BATCHES))
    print(f"{'onnxruntime, no encoding':34}" + "".join(
        f"{cell([run[b] for run in ort_runs]):>26}" for b in BATCHES
    ))
    for key, label in PJLAB_ROWS:
        print(f"{label:34}" + "".join(
            f"{cell([run[key.format(b)] for run in pjlab_runs]):>26}" for b in BATCHES
        ))
    print(f"{'pjlab packed / onnxruntime':34}" + "".join(
        f"{statistics.median([p[PJLAB_ROWS[0][0].format(b)] for p in pjlab_runs]) / statistics.median([o[b] for o in ort_runs]):>26.2f}"
        for b in BATCHES
    ))
    print(
        "encoding: onnxruntime and the 'no encoding' rows take encoded inputs; 'with encoding' "
        "and 'search evaluation' include encoding the positions"
    )


if __name__ == "__main__":
    main()
