"""OpenSpiel's own Python algorithms on the lab's games, from the ``open_spiel`` package:
``mcts.MCTSBot`` with its random-rollout evaluator, ``minimax.alpha_beta_search`` and
``rl_environment.Environment`` play every game and variant to its end."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import pjlab
from conftest import ALL_VARIANTS

pytest.importorskip(
    "open_spiel",
    reason="OpenSpiel has no wheel for this Python or platform (pip install open_spiel)",
)
pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import mcts, minimax  # noqa: E402

# The two-player, deterministic, perfect-information variants alpha_beta_search accepts.
TWO_SIDED = [
    (name, variant)
    for name, variant in ALL_VARIANTS
    if name != "chifoumi" and not variant.startswith("doubles")
]


def check_final(game: pjlab.Game, state: pjlab.State) -> None:
    """A finished game: terminal, returns in range and summing to the game's utility sum
    (zero-sum sides: a doubles team's two seats share their side's return)."""
    assert state.is_terminal()
    returns = np.asarray(state.returns())
    assert np.all(returns >= game.min_utility()) and np.all(returns <= game.max_utility())
    sides = returns[0::2][:1].sum() + returns[1::2][:1].sum()
    assert sides == pytest.approx(game.utility_sum())
    assert state.rewards() == state.returns()


def test_get_type_is_pyspiels():
    for name in pjlab.registered_games():
        game = pjlab.load_game(name)
        kind = game.get_type()
        assert isinstance(kind, pyspiel.GameType)
        assert kind.short_name == name
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        hidden = name == "chifoumi"
        expected = (
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        )
        assert kind.information == expected
        chance = (
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if hidden
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        )
        assert kind.chance_mode == chance
        assert kind.provides_information_state_tensor == hidden
        assert kind.provides_observation_tensor


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_mcts_bot_plays_every_variant_to_its_end(name, variant):
    game = pjlab.load_game(name, variant)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    check_final(game, state)


def value(state) -> float:
    """A deterministic, varied evaluation for alpha-beta: a hash of the position in [-0.5, 0.5]."""
    return zlib.crc32(str(state).encode()) / 2**32 - 0.5


@pytest.mark.parametrize(("name", "variant"), TWO_SIDED)
def test_alpha_beta_search_plays_every_two_sided_variant_to_its_end(name, variant):
    game = pjlab.load_game(name, variant)
    state = game.new_initial_state(seed=2)
    depth = 2 if name == "chomp" else 1
    while not state.is_terminal():
        player = state.current_player()
        _, action = minimax.alpha_beta_search(
            game, state.clone(), value, maximum_depth=depth, maximizing_player_id=player
        )
        assert action in state.legal_actions()
        state.apply_action(action)
    check_final(game, state)


def test_alpha_beta_search_solves_small_chomp():
    # A rectangular Chomp bar is a first-player win (strategy stealing): the full search says so.
    game = pjlab.load_game("chomp", "3x4")
    result, action = minimax.alpha_beta_search(game, game.new_initial_state())
    assert result == 1.0
    state = game.new_initial_state()
    state.apply_action(action)
    assert minimax.alpha_beta_search(game, state, maximizing_player_id=0)[0] == 1.0


@pytest.mark.parametrize(
    ("name", "variant"), [("abalone", "doubles"), ("chifoumi", "standard")]
)
def test_alpha_beta_search_refuses_what_it_cannot_solve(name, variant):
    # OpenSpiel refuses, from get_type() and num_players(), four players and chance with hidden
    # information (the latter as an AttributeError: its message reads `game.chance_mode`, which
    # no game has, pyspiel's own included).
    game = pjlab.load_game(name, variant)
    with pytest.raises((ValueError, AttributeError)):
        minimax.alpha_beta_search(game, game.new_initial_state(), lambda s: 0.0, 1)


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_rl_environment_runs_every_variant_to_its_end(name, variant):
    game = pjlab.load_game(name, variant)
    env = rl_environment.Environment(game, seed=4)
    hidden = name == "chifoumi"
    size = game.information_state_tensor_size() if hidden else game.observation_tensor_size()
    assert env.observation_spec()["info_state"] == (size,)
    assert env.action_spec()["num_actions"] == game.num_distinct_actions()
    rng = np.random.default_rng(4)
    for _ in range(2):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            state = env.get_state
            for p in range(game.num_players()):
                expected = (
                    state.information_state_tensor(p) if hidden else state.observation_tensor(p)
                )
                np.testing.assert_array_equal(step.observations["info_state"][p], expected)
            legal = step.observations["legal_actions"][player]
            assert legal == state.legal_actions()
            step = env.step([int(rng.choice(legal))])
        check_final(game, env.get_state)
        assert step.rewards == env.get_state.returns()
