"""pjlab.read_games / read_positions on runs written by the binary: decoded actions replay to
the recorded results; the networks of a short training run load and play."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

pytest.importorskip("pyarrow")

import pjlab  # noqa: E402
from conftest import pjlab_binary  # noqa: E402

TINY = """
game = "chomp"
seed = 1
iterations = 1
games_per_iteration = 6
workers = 1

[chomp]
rows = 3
cols = 4

[network]
hidden = 8
layers = 1

[selfplay]
simulations = 8
cheap_simulations = 4
games_in_flight = 6

[window]
min_size = 10

[train]
batch_size = 8

[eval]
every = 1000
"""


def run(*args):
    done = subprocess.run([pjlab_binary(), *args], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def match_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("match")
    run("match", "--game", "pijersi", "--a", "random", "--b", "greedy", "--games", "4",
        "--workers", "1", "--out", str(out), "-q")
    return out


@pytest.fixture(scope="module")
def train_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("train")
    (root / "tiny.toml").write_text(TINY)
    run("train", "--config", str(root / "tiny.toml"), "--out", str(root / "run"), "-q")
    return root / "run"


def test_games_decode_and_replay_to_their_results(match_dir):
    for path in (match_dir, match_dir / "games.parquet"):
        games = pjlab.read_games(path)
        assert games.num_rows == 4
        assert str(games.schema.field("actions").type) == "list<item: int32>"
    rows = games.to_pylist()
    for row in rows:
        assert len(row["actions"]) == row["length"] == len(row["moves"])
        game = pjlab.load_game(row["game"], row["variant"])
        state = game.state_from_text(row["start"])
        for action, move in zip(row["actions"], row["moves"]):
            assert move == state.action_to_string(action)
            state.apply_action(action)
        if row["termination"] == "rules":
            assert state.is_terminal()
            assert state.returns()[0] == row["result"]


def test_positions_decode_their_actions(train_dir):
    positions = pjlab.read_positions(train_dir)
    assert positions.num_rows > 0
    assert positions.equals(pjlab.read_positions(train_dir / "positions"))
    games = pjlab.read_games(train_dir)
    lengths = dict(zip(games.column("game_id").to_pylist(), games.column("length").to_pylist()))
    counted = {}
    game = pjlab.load_game("chomp", "3x4")
    for row in positions.to_pylist():
        counted[row["game_id"]] = counted.get(row["game_id"], 0) + 1
        state = game.state_from_text(row["position"])
        assert sorted(row["legal"]) == state.legal_actions()
        assert row["legal_moves"] == [state.action_to_string(a) for a in row["legal"]]
        assert len(row["policy_moves"]) == len(row["policy_actions"])
    assert counted == lengths
    observations = game.encode_positions(positions.column("position").to_pylist()[:3])
    assert observations.shape == (3, game.observation_tensor_size())
    first = game.state_from_text(positions.column("position")[0].as_py())
    np.testing.assert_array_equal(observations[0], first.observation_tensor())


def test_records_errors(tmp_path, train_dir):
    with pytest.raises(FileNotFoundError):
        pjlab.read_games(tmp_path / "nothing")
    with pytest.raises(ValueError, match="schema 'positions/1', expected 'games/1'"):
        pjlab.read_games(train_dir / "positions")
    with pytest.raises(ValueError, match="no position text"):
        pjlab.load_game("chifoumi").state_from_text("x")
    chomp = pjlab.load_game("chomp")
    start = chomp.new_initial_state()
    first = start.action_to_string(start.legal_actions()[1])
    assert chomp.decode_moves(str(start), [first]) == [start.legal_actions()[1]]
    with pytest.raises(ValueError, match="move 2"):
        chomp.decode_moves(str(start), [first, "zz"])


def test_a_file_without_a_column_it_needs_names_the_columns_and_the_file(tmp_path, train_dir):
    import pyarrow.parquet as pq

    for reader, table, dropped in [
        (pjlab.read_games, "games", ["start", "moves"]),
        (pjlab.read_positions, "positions", ["legal"]),
    ]:
        source = sorted((train_dir / table).glob("*.parquet"))[0]
        # The schema key is in the file's key-value metadata: keep it.
        key = {b"pjlab.schema": pq.read_metadata(source).metadata[b"pjlab.schema"]}
        written = pq.read_table(source).drop_columns(dropped).replace_schema_metadata(key)
        cut = tmp_path / f"{table}-cut.parquet"
        pq.write_table(written, cut)
        with pytest.raises(pjlab.ArgumentError) as caught:
            reader(cut, game="chomp") if table == "positions" else reader(cut)
        assert isinstance(caught.value, ValueError)
        assert str(cut) in str(caught.value)
        assert ", ".join(dropped) in str(caught.value), str(caught.value)


def test_a_trained_checkpoint_loads_as_a_model_and_an_agent(train_dir):
    model = pjlab.Model.load(train_dir)
    assert (model.game_name, model.format) == ("chomp", "checkpoint")
    game = pjlab.load_game("chomp", "3x4")
    state = game.new_initial_state()
    policy, value = model.evaluate([state])
    assert policy.shape == (1, game.num_distinct_actions())
    assert -1.0 <= value[0] <= 1.0
    raw, _ = model.evaluate(state.observation_tensor()[None, :])
    np.testing.assert_allclose(raw, policy, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="network for chomp, not pijersi"):
        pjlab.Model.load(train_dir, game="pijersi")
    with pytest.raises(ValueError, match="network for chomp, not pijersi"):
        pjlab.Agent(f"net:checkpoint={train_dir}", "pijersi")
    agent = pjlab.Agent(f"net:checkpoint={train_dir},sims=8", game, seed=1)
    while not state.is_terminal():
        state.apply_action(agent.choose(state))
