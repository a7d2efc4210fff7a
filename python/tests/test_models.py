"""pjlab.Model and net: agents on foreign ONNX models built with the onnx package, checked
against numpy computing the same graph; models that do not fit are refused by name."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import pjlab  # noqa: E402
from conftest import pjlab_binary  # noqa: E402

HIDDEN = 8


def weights(game, seed=0):
    rng = np.random.default_rng(seed)
    width, actions = game.observation_tensor_size(), game.num_distinct_actions()
    return {
        "w1": rng.normal(0, 0.3, (width, HIDDEN)).astype(np.float32),
        "b1": rng.normal(0, 0.1, HIDDEN).astype(np.float32),
        "wp": rng.normal(0, 0.5, (HIDDEN, actions)).astype(np.float32),
        "bp": rng.normal(0, 0.1, actions).astype(np.float32),
        "wv": rng.normal(0, 0.5, (HIDDEN, 3)).astype(np.float32),
        "bv": rng.normal(0, 0.1, 3).astype(np.float32),
    }


def numpy_forward(w, x):
    """The graph below, in numpy: relu(x W1 + b1), then the two heads."""
    h = np.maximum(x @ w["w1"] + w["b1"], 0.0)
    policy = h @ w["wp"] + w["bp"]
    wdl = h @ w["wv"] + w["bv"]
    p = np.exp(wdl - wdl.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return policy, p[:, 0] - p[:, 2]


def build(
    w,
    input_name="input",
    policy_name="policy_logits",
    wdl_name="wdl_logits",
    with_wdl=True,
    actions=None,
):
    """A tiny policy/value model written with MatMul/Add (not the lab's Gemm), its outputs in
    the other order than `pjlab export` writes them, a symbolic batch named N."""
    width = w["w1"].shape[0]
    actions = actions or w["wp"].shape[1]
    wp, bp = w["wp"], w["bp"]
    if actions != wp.shape[1]:
        wp = np.resize(wp, (HIDDEN, actions)).astype(np.float32)
        bp = np.resize(bp, actions).astype(np.float32)
    inits = [
        numpy_helper.from_array(v, name)
        for name, v in {**w, "wp": wp, "bp": bp}.items()
    ]
    nodes = [
        helper.make_node("MatMul", [input_name, "w1"], ["z1"]),
        helper.make_node("Add", ["z1", "b1"], ["a1"]),
        helper.make_node("Relu", ["a1"], ["h"]),
        helper.make_node("MatMul", ["h", "wv"], ["zv"]),
        helper.make_node("Add", ["zv", "bv"], [wdl_name]),
        helper.make_node("MatMul", ["h", "wp"], ["zp"]),
        helper.make_node("Add", ["zp", "bp"], [policy_name]),
    ]
    outputs = [helper.make_tensor_value_info(policy_name, TensorProto.FLOAT, ["N", actions])]
    if with_wdl:
        outputs.insert(0, helper.make_tensor_value_info(wdl_name, TensorProto.FLOAT, ["N", 3]))
    graph = helper.make_graph(
        nodes,
        "foreign",
        [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, ["N", width])],
        outputs,
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def card(game, **override):
    """A model card as `pjlab export` writes one, for `game`'s encoder."""
    name, version = game.observation_encoding().rsplit(" v", 1)
    body = {
        "format": "onnx",
        "game": game.name,
        "encoder": {"name": name, "version": int(version)},
        "input": {"name": "input", "shape": ["batch", game.observation_tensor_size()]},
        "outputs": {
            "policy_logits": {"shape": ["batch", game.num_distinct_actions()]},
            "wdl_logits": {"shape": ["batch", 3]},
        },
    }
    body.update(override)
    return body


def write(tmp_path, model, card_body=None, name="model"):
    path = tmp_path / f"{name}.onnx"
    onnx.save(model, str(path))
    if card_body is not None:
        (tmp_path / f"{name}.json").write_text(json.dumps(card_body))
    return path


def observations(game, states):
    return np.stack([s.observation_tensor() for s in states]).astype(np.float32)


def some_states(game, n=5):
    state = game.new_initial_state(seed=2)
    walker = pjlab.Agent("random", game, seed=1)
    states = []
    while len(states) < n and not state.is_terminal():
        states.append(state.clone())
        state.apply_action(walker.choose(state))
    return states


@pytest.mark.parametrize("name", ["pijersi", "chomp"])
def test_a_foreign_model_round_trips_through_model_load(tmp_path, name):
    game = pjlab.load_game(name)
    w = weights(game)
    path = write(tmp_path, build(w), card(game))
    model = pjlab.Model.load(path)
    assert (model.game_name, model.format) == (name, "onnx")
    assert model.encoding == game.observation_encoding()
    assert (model.input_size, model.num_actions) == (
        game.observation_tensor_size(),
        game.num_distinct_actions(),
    )
    states = some_states(game)
    x = observations(game, states)
    policy, value = model.evaluate(x)
    want_policy, want_value = numpy_forward(w, x)
    assert policy.shape == (len(states), game.num_distinct_actions())
    assert value.shape == (len(states),)
    np.testing.assert_allclose(policy, want_policy, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value, want_value, rtol=1e-4, atol=1e-5)
    # States: the same logits, by each state's own action indices (the network's view is the
    # mover's, so rows are a permutation of the raw ones; the first mover's is the identity).
    by_state, state_value = model.evaluate(states)
    np.testing.assert_allclose(state_value, value, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(by_state[0], policy[0], rtol=1e-5, atol=1e-6)
    for row, raw in zip(by_state, policy):
        np.testing.assert_allclose(np.sort(row), np.sort(raw), rtol=1e-5, atol=1e-6)


def test_the_game_argument_stands_in_for_a_missing_card(tmp_path):
    game = pjlab.load_game("chomp", "3x4")
    path = write(tmp_path, build(weights(game)))
    with pytest.raises(ValueError, match="no model card"):
        pjlab.Model.load(path)
    # A Game names its variant (the 3x4 bar's encoder); a name alone, the bar whose squares
    # the model's input counts among the variants (3x4 again).
    assert pjlab.Model.load(path, game=game).encoding == "chomp-3x4 v1"
    assert pjlab.Model.load(path, game="chomp").encoding == "chomp-3x4 v1"
    # A bar no variant has: the default bar's encoder, and the check names the difference.
    odd = write(tmp_path, build(weights(pjlab.load_game("chomp", "4x4"))), name="odd")
    with pytest.raises(ValueError, match=r"input shape: expected \[batch, 12\], found \[N, 16\]"):
        pjlab.Model.load(odd, game="chomp")


def test_a_foreign_model_plays_as_a_net_agent(tmp_path):
    game = pjlab.load_game("pijersi")
    path = write(tmp_path, build(weights(game)), card(game))
    agent = pjlab.Agent(f"net:checkpoint={path},sims=8", game, seed=1)
    state = game.new_initial_state(seed=1)
    for _ in range(6):
        action = agent.choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_a_foreign_model_plays_in_pjlab_match(tmp_path):
    game = pjlab.load_game("chomp")
    path = write(tmp_path, build(weights(game)), card(game))
    out = tmp_path / "match"
    done = subprocess.run(
        [
            pjlab_binary(), "match", "--game", "chomp", "--games", "2", "--workers", "1",
            "--a", f"net:checkpoint={path},sims=8", "--b", "random", "--out", str(out), "-q",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    games = pjlab.read_games(out)
    assert games.num_rows == 2
    assert all("net:checkpoint" in n for n in games.column("network").to_pylist())


MISMATCHES = [
    ({"input_name": "obs"}, 'input name: expected "input", found "obs"'),
    ({"actions": 7}, "policy_logits shape: expected [batch, 12], found [N, 7]"),
    ({"with_wdl": False}, 'outputs: expected "policy_logits" and "wdl_logits"'),
    ({"wdl_name": "value"}, 'found "value", "policy_logits" (no "wdl_logits")'),
]


@pytest.mark.parametrize(("change", "message"), MISMATCHES)
def test_a_model_that_does_not_fit_is_refused_by_name(tmp_path, change, message):
    game = pjlab.load_game("chomp")
    path = write(tmp_path, build(weights(game), **change), card(game))
    with pytest.raises(ValueError) as error:
        pjlab.Model.load(path)
    assert "does not fit chomp's model card" in str(error.value)
    assert message in str(error.value)
    with pytest.raises(ValueError, match="does not fit"):
        pjlab.Agent(f"net:checkpoint={path}", "chomp")


def test_a_card_of_another_game_or_encoder_is_refused(tmp_path):
    chomp = pjlab.load_game("chomp")
    path = write(tmp_path, build(weights(chomp)), card(chomp))
    with pytest.raises(ValueError, match="game: expected pijersi, found chomp"):
        pjlab.Model.load(path, game="pijersi")
    other = card(chomp, encoder={"name": "chomp-3x4", "version": 2})
    path = write(tmp_path, build(weights(chomp)), other, name="other")
    with pytest.raises(ValueError, match="encoder: expected chomp-3x4 v1, found chomp-3x4 v2"):
        pjlab.Model.load(path)
    # A card of the 4x7 bar whose shapes are the 3x4 bar's: its encoder is found (by the
    # bar its name ends with), and the card's own input shape differs from it.
    other = card(chomp, encoder={"name": "chomp-4x7", "version": 1})
    path = write(tmp_path, build(weights(chomp)), other, name="wider")
    with pytest.raises(ValueError, match=r'card input shape: expected \["batch", 28\]'):
        pjlab.Model.load(path)
    with pytest.raises(ValueError, match="cannot evaluate a pijersi state"):
        pjlab.Model.load(write(tmp_path, build(weights(chomp)), card(chomp), "ok")).evaluate(
            [pjlab.load_game("pijersi").new_initial_state()]
        )
    with pytest.raises(ValueError, match="observations has shape"):
        pjlab.Model.load(tmp_path / "ok.onnx").evaluate(np.zeros((2, 5), np.float32))


def test_the_torch_example_uses_the_default_exporter():
    """``python/examples/train_torch.py`` exports with PyTorch's default (dynamo) exporter, whose
    files (weights in ``model.onnx.data``, opset 18 or later) the lab loads: no ``dynamo=False``
    nor an old opset."""
    import ast
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "examples" / "train_torch.py"
    calls = [
        node
        for node in ast.walk(ast.parse(example.read_text()))
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "torch.onnx.export"
    ]
    assert len(calls) == 1
    keywords = {k.arg: ast.unparse(k.value) for k in calls[0].keywords}
    assert "dynamo" not in keywords and "opset_version" not in keywords, keywords
    assert "dynamic_axes" not in keywords, "the default exporter takes dynamic_shapes"
