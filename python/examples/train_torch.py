"""Train a small PyTorch policy/value network on a lab run's positions, export it to ONNX with a
model card the lab accepts, and play it against the lab's alpha-beta.

    pip install torch onnx './python[records]'          # CPU wheels are enough
    pjlab train --out runs/quick --iterations 10       # the built-in quick Pijersi run
    python python/examples/train_torch.py --run runs/quick --out pijersi-torch.onnx

Steps:

1. ``pjlab.read_positions`` reads the run's ``positions/*.parquet``: each row a position's text,
   the search's policy over the legal actions (``policy_actions``, ``policy_probs``) and the
   game's final result for the side to move.
2. Inputs are the game's observations of those positions (``Game.encode_positions``); policy
   targets go to the network's own action indices (``Game.policy_indices``: the model card's
   view is the mover's, so Pijersi and Abalone mirror the second side's actions); value targets
   are win/draw/loss classes from the result.
3. An MLP with two heads is trained with cross-entropy on both (the lab's AlphaZero losses).
4. ``torch.onnx.export`` (PyTorch's default exporter: opset 18 or later, the weights in
   ``<out>.data`` beside the model) writes it with the card's names: input ``input``
   ``[batch, obs]``, outputs ``policy_logits`` ``[batch, actions]`` and ``wdl_logits``
   ``[batch, 3]`` (win, draw, loss); ``model.json`` beside it names the game and its encoder.
   Keep the ``.data`` file beside the model when moving it. ``pjlab.Model.load`` checks
   both and compares the exported model with PyTorch on a few positions.
5. ``pjlab match`` plays it (``net:checkpoint=model.onnx``, MCTS with the network) against
   alpha-beta, and a short game is played in Python with ``pjlab.Agent``.

The run's game comes from its ``run.json``; observations are those of the game's default
variant (for Chomp, a run on the default 3x4 bar: ``[chomp] rows = 3``, ``cols = 4``; the
card names the encoder, so the lab builds the same inputs).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch
from torch import nn

import pjlab


class PolicyValueNet(nn.Module):
    """A trunk of ReLU layers and two linear heads, as the lab's own network."""

    def __init__(self, inputs: int, actions: int, hidden: int, layers: int):
        super().__init__()
        trunk: list[nn.Module] = []
        width = inputs
        for _ in range(layers):
            trunk += [nn.Linear(width, hidden), nn.ReLU()]
            width = hidden
        self.trunk = nn.Sequential(*trunk)
        self.policy = nn.Linear(hidden, actions)
        self.wdl = nn.Linear(hidden, 3)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(x)
        return self.policy(h), self.wdl(h)


def load_data(run: Path):
    """Observations, policy targets (dense, in the network's view) and win/draw/loss classes
    of the run's positions, and the game."""
    positions = pjlab.read_positions(run)
    manifest = json.loads((run / "run.json").read_text())
    game = pjlab.load_game(manifest["game"])
    texts = positions.column("position").to_pylist()
    x = game.encode_positions(texts)
    indices = game.policy_indices(texts, positions.column("policy_actions").to_pylist())
    probs = positions.column("policy_probs").to_pylist()
    policy = np.zeros((len(texts), game.num_distinct_actions()), np.float32)
    for row, (where, p) in enumerate(zip(indices, probs)):
        policy[row, where] = p
    # Result for the side to move: 1 win -> class 0, 0 draw -> 1, -1 loss -> 2.
    result = positions.column("result").to_numpy()
    wdl = np.where(result > 0, 0, np.where(result < 0, 2, 1)).astype(np.int64)
    return game, torch.from_numpy(x), torch.from_numpy(policy), torch.from_numpy(wdl)


def train(net: nn.Module, x, policy, wdl, epochs: int, batch: int, lr: float) -> None:
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    n = x.shape[0]
    for epoch in range(epochs):
        order = torch.randperm(n)
        total = 0.0
        for start in range(0, n, batch):
            i = order[start : start + batch]
            logits, wdl_logits = net(x[i])
            policy_loss = -(policy[i] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            value_loss = nn.functional.cross_entropy(wdl_logits, wdl[i])
            loss = policy_loss + value_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(i)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / n:.4f}")


def export(net: nn.Module, game: pjlab.Game, out: Path) -> None:
    """The model and its card, as the lab reads them."""
    net.eval()
    # A batch of 2: the exporter traces a batch of 1 as a fixed size.
    dummy = torch.zeros(2, game.observation_tensor_size())
    torch.onnx.export(
        net,
        (dummy,),
        str(out),
        input_names=["input"],
        output_names=["policy_logits", "wdl_logits"],
        dynamic_shapes={"x": {0: torch.export.Dim("batch")}},
    )
    encoder, version = game.observation_encoding().rsplit(" v", 1)
    card = {
        "format": "onnx",
        "producer": f"PyTorch {torch.__version__} (python/examples/train_torch.py)",
        "game": game.name,
        "encoder": {"name": encoder, "version": int(version)},
        "input": {"name": "input", "shape": ["batch", game.observation_tensor_size()]},
        "outputs": {
            "policy_logits": {"shape": ["batch", game.num_distinct_actions()]},
            "wdl_logits": {"shape": ["batch", 3]},
        },
    }
    out.with_suffix(".json").write_text(json.dumps(card, indent=2))


def check(net: nn.Module, game: pjlab.Game, out: Path, x: torch.Tensor) -> None:
    """The lab's loader accepts the model and computes what PyTorch does."""
    model = pjlab.Model.load(out)
    policy, value = model.evaluate(x[:8].numpy())
    with torch.no_grad():
        want_policy, wdl = net(x[:8])
    p = torch.softmax(wdl, dim=1)
    np.testing.assert_allclose(policy, want_policy.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value, (p[:, 0] - p[:, 2]).numpy(), rtol=1e-4, atol=1e-4)
    print(f"{out}: loaded by pjlab ({model.encoding}), outputs match PyTorch")


def play(game: pjlab.Game, out: Path, pjlab_bin: str, games: int, depth: int, sims: int) -> None:
    agent = pjlab.Agent(f"net:checkpoint={out},sims={sims}", game, seed=1)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(agent.choose(state))
    print(f"a self-play game in Python: returns {state.returns()}")
    if shutil.which(pjlab_bin) is None and not Path(pjlab_bin).exists():
        print(f"no pjlab binary at {pjlab_bin}: skipping the match (cargo build --release -p pjlab-cli)")
        return
    command = [
        pjlab_bin, "match", "--game", game.name, "--games", str(games),
        "--a", f"net:checkpoint={out},sims={sims}", "--b", f"alphabeta:depth={depth}",
        "--out", str(out.with_suffix("")) + "-match",
    ]
    print("$", " ".join(command))
    subprocess.run(command, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="a pjlab train run directory")
    parser.add_argument("--out", type=Path, default=Path("model.onnx"))
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--games", type=int, default=20, help="games of the match")
    parser.add_argument("--depth", type=int, default=2, help="alpha-beta's depth")
    parser.add_argument("--sims", type=int, default=100, help="the network player's simulations")
    parser.add_argument("--pjlab", default="target/release/pjlab", help="the pjlab binary")
    args = parser.parse_args()

    torch.manual_seed(0)
    game, x, policy, wdl = load_data(args.run)
    print(f"{game.name}: {x.shape[0]} positions from {args.run}")
    net = PolicyValueNet(x.shape[1], policy.shape[1], args.hidden, args.layers)
    train(net, x, policy, wdl, args.epochs, args.batch, args.lr)
    export(net, game, args.out)
    check(net, game, args.out, x)
    play(game, args.out, args.pjlab, args.games, args.depth, args.sims)
    return 0


if __name__ == "__main__":
    sys.exit(main())
