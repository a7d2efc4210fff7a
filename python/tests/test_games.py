"""The OpenSpiel-style API on every game and variant of the registry."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import pjlab
from conftest import ALL_VARIANTS, settle


def test_registry_names_every_game():
    assert pjlab.registered_games() == ["pijersi", "abalone", "chomp", "chifoumi"]


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_static_facts(name, variant):
    game = pjlab.load_game(name, variant=variant)
    assert game.name == name
    assert game.variant == variant
    players = 4 if variant.startswith("doubles") else 2
    assert game.num_players() == players
    assert game.num_distinct_actions() > 0
    assert game.observation_tensor_shape() == [game.observation_tensor_size()]
    assert game.max_game_length() is None or game.max_game_length() > 0
    assert game.is_perfect_information() == (name != "chifoumi")
    assert (game.max_chance_outcomes() > 0) == (name == "chifoumi")
    assert "load_game" in repr(game)


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_random_playouts_keep_every_invariant(name, variant):
    game = pjlab.load_game(name, variant=variant)
    rng = np.random.default_rng(5)
    limit = game.max_game_length()
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        plies = 0
        while not state.is_terminal() and plies < 150:
            player = state.current_player()
            if state.is_chance_node():
                # Explicit chance (Chifoumi): outcomes with probabilities, drawn here by numpy.
                assert player == pjlab.CHANCE_PLAYER and not state.is_player_node()
                outcomes = state.chance_outcomes()
                actions, probs = [a for a, _ in outcomes], np.array([p for _, p in outcomes])
                assert actions == sorted(set(actions)) and (probs > 0).all()
                assert abs(probs.sum() - 1.0) < 1e-9
                assert state.legal_actions() == actions
                mask = state.legal_actions_mask()
                assert mask.shape == (game.max_chance_outcomes(),)
                assert list(np.flatnonzero(mask)) == actions
                outcome = int(rng.choice(actions, p=probs / probs.sum()))
                assert state.string_to_action(state.action_to_string(outcome)) == outcome
                state.apply_action(outcome)
                assert state.history()[-1] == outcome
                continue
            assert 0 <= player < game.num_players()
            assert state.is_player_node()
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            mask = state.legal_actions_mask()
            assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
            assert list(np.flatnonzero(mask)) == legal
            for p in range(game.num_players()):
                obs = state.observation_tensor(p)
                assert obs.dtype == np.float32 and obs.shape == (game.observation_tensor_size(),)
                assert np.isfinite(obs).all()
            action = int(rng.choice(legal))
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
            assert state.action_to_string(player, action) == text
            before = str(state)
            other = state.clone()
            state.apply_action(action)
            assert str(other) == before, "a clone is independent"
            assert other.history() == state.history()[:-1]
            plies += 1
        if state.is_terminal():
            assert state.current_player() == pjlab.TERMINAL_PLAYER
            assert state.legal_actions() == []
            assert not state.legal_actions_mask().any()
            returns = state.returns()
            if name != "chifoumi":
                teams = [sum(returns[k::2]) / len(returns[k::2]) for k in range(2)]
                assert teams[0] == -teams[1]
            if limit is not None:
                assert plies <= limit


def test_variants_differ_and_seeds_replay():
    game = pjlab.load_game("pijersi", "half-random")
    starts = {str(game.new_initial_state(seed)) for seed in range(6)}
    assert len(starts) > 1
    assert str(game.new_initial_state(3)) == str(game.new_initial_state(3))
    classic = pjlab.load_game("pijersi")
    assert classic.variant == "classic"
    assert str(classic.new_initial_state(0)) == str(classic.new_initial_state(9))


def test_positions_are_in_the_games_notation():
    pijersi = pjlab.load_game("pijersi").new_initial_state()
    assert str(pijersi).endswith(" w 0 1")  # PSN
    assert pijersi.action_to_string(pijersi.string_to_action("a4b5c4")) == "a4b5c4"
    abalone = pjlab.load_game("abalone", "belgian-daisy").new_initial_state()
    assert str(abalone) == "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0 0 0 1"
    abalone.apply_action(abalone.string_to_action("c2c3"))
    assert str(abalone) == "ww1bb/wwwbbb/1ww1bb1/8/9/8/2bbww1/bbbwww/bb1ww w 0 0 1 1"
    chomp = pjlab.load_game("chomp", "4x5").new_initial_state()
    assert str(chomp).startswith("4x5:")


def test_doubles_has_four_seats_in_order():
    for variant, order in [("doubles", [0, 1, 2, 3, 0]), ("doubles-0321", [0, 3, 2, 1, 0])]:
        state = pjlab.load_game("abalone", variant).new_initial_state()
        seen = []
        for _ in range(5):
            seen.append(state.current_player())
            state.apply_action(state.legal_actions()[0])
        assert seen == order, variant


def test_copy_module_clones():
    state = pjlab.load_game("chomp", "3x4").new_initial_state()
    other = copy.deepcopy(state)
    state.apply_action(state.legal_actions()[0])
    assert str(other) != str(state)
    assert copy.copy(state).history() == state.history()


def test_chifoumi_observations_are_per_player():
    game = pjlab.load_game("chifoumi")
    state = settle(game.new_initial_state(seed=4))
    differ = 0
    for _ in range(30):
        if state.is_terminal():
            break
        a, b = state.observation_tensor(0), state.observation_tensor(1)
        differ += not np.array_equal(a, b)
        assert np.array_equal(state.observation_tensor(), state.observation_tensor(state.current_player()))
        state.apply_action(state.legal_actions()[0])
        settle(state)
    assert differ > 0


def test_chifoumi_chance_follows_the_seed():
    game = pjlab.load_game("chifoumi")
    runs = []
    for _ in range(2):
        state = settle(game.new_initial_state(seed=21))
        while not state.is_terminal():
            legal = state.legal_actions()
            # Duel (4) as soon as it is offered: the duel is drawn from the seeded generator.
            state.apply_action(4 if 4 in legal else legal[0])
            settle(state)
        runs.append((str(state), state.returns()))
    assert runs[0] == runs[1]


def test_the_package_has_the_workspaces_version():
    import pathlib
    import re

    cargo = pathlib.Path(__file__).resolve().parents[2] / "Cargo.toml"
    workspace = re.search(r'^version = "([^"]+)"', cargo.read_text(), re.MULTILINE)
    assert workspace is not None
    assert pjlab.__version__ == workspace.group(1)
    assert "__version__" in pjlab.__all__
