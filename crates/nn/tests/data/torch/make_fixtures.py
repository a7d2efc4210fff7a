"""Writes the PyTorch-exported ONNX fixtures of `crates/nn/tests/torch_exports.rs`: tiny
policy/value networks of the lab's games, exported by today's default exporter
(`torch.onnx.export(..., dynamo=True)`: opset 20, weights of 256 bytes and more in
`<name>.onnx.data`, `value_info` on the weights) and by the legacy one (`dynamo=False`), with
`expected.json`: each fixture's outputs computed by PyTorch on fixed input rows.

    python3 -m venv /tmp/torchvenv
    /tmp/torchvenv/bin/pip install torch onnx onnxscript
    cargo build --release -p pjlab-cli
    /tmp/torchvenv/bin/python crates/nn/tests/data/torch/make_fixtures.py --pjlab target/release/pjlab

The networks are the shape of `python/examples/train_torch.py`'s (a ReLU trunk and two linear
heads), two hidden units wide so the files stay small; their weights are seeded. Input rows:
the game's start position as `pjlab encode` writes it (Chomp 3x4: the full bar, twelve ones,
as the `chomp-3x4` encoder has it) and a fixed pattern. For the large policies of Pijersi and
Abalone, `expected.json` keeps every `stride`-th logit and the sum of all of them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import onnx
import torch
from torch import nn

HERE = Path(__file__).resolve().parent


class PolicyValueNet(nn.Module):
    """A trunk of ReLU layers and two linear heads, as in `python/examples/train_torch.py`."""

    def __init__(self, inputs: int, actions: int, hidden: int):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, actions)
        self.wdl = nn.Linear(hidden, 3)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(x)
        return self.policy(h), self.wdl(h)


# name, game, encoder, input length, actions, hidden width, exports: (suffix, exporter, opset)
GAMES = [
    ("chomp-3x4", "chomp", "chomp-3x4", 12, 12, 8,
     [("dynamo", True, None), ("dynamo-opset18", True, 18), ("legacy", False, 17)]),
    ("pijersi", "pijersi", "pijersi-planes", 721, 3748, 2, [("dynamo", True, None)]),
    ("abalone", "abalone", "abalone-planes", 433, 1273, 2, [("dynamo", True, None)]),
]
NAMES = {"input_names": ["input"], "output_names": ["policy_logits", "wdl_logits"]}


def start_row(game: str, inputs: int, pjlab: str) -> list[float]:
    if game == "chomp":
        return [1.0] * inputs
    out = subprocess.run([pjlab, "encode", "--game", game], check=True, capture_output=True)
    row = json.loads(out.stdout)["input"]
    assert len(row) == inputs, (game, len(row))
    return row


def pattern_row(inputs: int) -> list[float]:
    """Quarters from -1.25 to 1.25, exact in 32-bit floats."""
    return [((i * 37) % 11 - 5) / 4 for i in range(inputs)]


def export(net: nn.Module, inputs: int, path: Path, dynamo: bool, opset: int | None) -> None:
    x = torch.zeros(1, inputs)
    for old in (path, path.with_name(path.name + ".data")):
        old.unlink(missing_ok=True)
    if dynamo:
        # Today's default: the exporter's own opset, weights in `<name>.onnx.data`.
        options = {} if opset is None else {"opset_version": opset}
        torch.onnx.export(
            net, (x,), str(path), **NAMES, dynamo=True, external_data=True,
            dynamic_shapes={"x": {0: torch.export.Dim("batch")}}, **options,
        )
    else:
        torch.onnx.export(
            net, (x,), str(path), **NAMES, dynamo=False, opset_version=opset,
            dynamic_axes={n: {0: "batch"} for n in ["input", "policy_logits", "wdl_logits"]},
        )


def file_opset(path: Path) -> int:
    """The default domain's opset the file imports."""
    model = onnx.load(str(path), load_external_data=False)
    return next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))


def card(game: str, encoder: str, inputs: int, actions: int) -> dict:
    return {
        "format": "onnx",
        "producer": f"PyTorch {torch.__version__} (crates/nn/tests/data/torch/make_fixtures.py)",
        "game": game,
        "encoder": {"name": encoder, "version": 1},
        "input": {"name": "input", "shape": ["batch", inputs]},
        "outputs": {
            "policy_logits": {"shape": ["batch", actions]},
            "wdl_logits": {"shape": ["batch", 3]},
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pjlab", default="pjlab", help="the lab's binary, for `pjlab encode`")
    args = parser.parse_args()
    expected = {"torch": torch.__version__, "fixtures": []}
    for seed, (name, game, encoder, inputs, actions, hidden, exports) in enumerate(GAMES):
        torch.manual_seed(seed)
        net = PolicyValueNet(inputs, actions, hidden).eval()
        rows = {"start": start_row(game, inputs, args.pjlab), "pattern": pattern_row(inputs)}
        with torch.no_grad():
            x = torch.tensor(list(rows.values()))
            policy, wdl = net(x)
        stride = 1 if actions <= 64 else actions // 50
        for suffix, dynamo, opset in exports:
            path = HERE / f"{name}-{suffix}.onnx"
            export(net, inputs, path, dynamo, opset)
            path.with_suffix(".json").write_text(
                json.dumps(card(game, encoder, inputs, actions), indent=2) + "\n"
            )
            expected["fixtures"].append({
                "file": path.name,
                "game": game,
                "encoder": encoder,
                "exporter": "dynamo" if dynamo else "legacy",
                "opset": file_opset(path),
                "input_len": inputs,
                "actions": actions,
                "stride": stride,
                "rows": [
                    {
                        "name": row,
                        "input": x[i].tolist(),
                        "policy": policy[i, ::stride].tolist(),
                        "policy_sum": policy[i].sum().item(),
                        "wdl": wdl[i].tolist(),
                    }
                    for i, row in enumerate(rows)
                ],
            })
    (HERE / "expected.json").write_text(json.dumps(expected, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
