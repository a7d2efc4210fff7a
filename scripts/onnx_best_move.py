#!/usr/bin/env python3
"""Pick a move for a Pijersi position with a model exported by `pjlab export`, in onnxruntime.

    pip install onnxruntime numpy
    pjlab export --checkpoint experiments/pijersi-vs-alphabeta/checkpoint --out model.onnx
    python3 scripts/onnx_best_move.py model.onnx \
        --psn 's-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1'

`pjlab encode` gives the network input and the legal moves with their action indices (the model
card `model.json` documents both, for programs that build them themselves). The script runs the
network once, keeps the legal moves' logits, and prints the move with the highest probability,
the value for the side to move, and the five likeliest moves, as JSON.
"""

import argparse
import json
import subprocess
import sys

import numpy as np
import onnxruntime as ort


def softmax(x):
    e = np.exp(x - np.max(x))
    return e / e.sum()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="the .onnx file written by pjlab export")
    parser.add_argument("--psn", help="the position (default: the classic start)")
    parser.add_argument("--pjlab", default="pjlab", help="the pjlab binary (default: on PATH)")
    args = parser.parse_args()

    command = [args.pjlab, "encode"] + (["--psn", args.psn] if args.psn else [])
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr.strip() or "pjlab encode failed")
    encoded = json.loads(done.stdout)
    legal = encoded["legal"]
    if not legal:
        sys.exit(f"no legal move: the game is over in {encoded['psn']}")

    session = ort.InferenceSession(args.model, providers=["CPUExecutionProvider"])
    x = np.asarray(encoded["input"], dtype=np.float32)[None, :]
    policy_logits, wdl_logits = session.run(["policy_logits", "wdl_logits"], {"input": x})
    probs = softmax(policy_logits[0][[m["action"] for m in legal]])
    win, draw, loss = softmax(wdl_logits[0])
    order = np.argsort(-probs)
    print(json.dumps({
        "psn": encoded["psn"],
        "best_move": legal[int(order[0])]["move"],
        "value": float(win - loss),
        "wdl": [float(win), float(draw), float(loss)],
        "top": [{"move": legal[int(i)]["move"], "p": round(float(probs[i]), 4)} for i in order[:5]],
    }))


if __name__ == "__main__":
    main()
