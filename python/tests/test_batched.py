"""BatchedEnv: N games stepped in Rust equal N single states, with automatic reset."""

from __future__ import annotations

import numpy as np
import pytest

import pjlab
from conftest import settle
from conftest import ALL_VARIANTS


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    scores = rng.random(masks.shape) * masks
    return scores.argmax(axis=1)


@pytest.mark.parametrize(
    ("name", "variant"),
    [("pijersi", "half-random"), ("abalone", "doubles-0321"), ("chomp", "3x4"), ("chifoumi", "standard")],
)
def test_batch_equals_single_states(name, variant):
    n, steps = 6, 120
    env = pjlab.BatchedEnv(name, n, variant=variant, seed=9)
    game = pjlab.load_game(name, variant)
    obs, masks, players = env.reset()
    singles = [settle(game.new_initial_state(int(s))) for s in env.seeds()]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(steps):
        for i, state in enumerate(singles):
            assert players[i] == state.current_player()
            np.testing.assert_array_equal(masks[i], state.legal_actions_mask())
            np.testing.assert_array_equal(obs[i], state.observation_tensor(state.current_player()))
            assert str(env.state(i)) == str(state)
        actions = random_actions(masks, rng)
        obs, masks, players, rewards, terminated = env.step(actions)
        assert rewards.shape == (n, game.num_players()) and terminated.dtype == np.bool_
        seeds = env.seeds()
        for i, state in enumerate(singles):
            before = np.array(state.returns())
            state.apply_action(int(actions[i]))
            settle(state)
            np.testing.assert_array_equal(rewards[i], np.array(state.returns()) - before)
            assert terminated[i] == state.is_terminal()
            if state.is_terminal():
                ended += 1
                singles[i] = settle(game.new_initial_state(int(seeds[i])))
    assert int(env.finished().sum()) == ended
    if name in ("chomp", "chifoumi"):
        assert ended > 0, "automatic reset was exercised"


def test_seeds_are_reproducible_and_reset_reseeds():
    a = pjlab.BatchedEnv("pijersi", 4, variant="full-random", seed=3)
    b = pjlab.BatchedEnv("pijersi", 4, variant="full-random", seed=3)
    np.testing.assert_array_equal(a.seeds(), b.seeds())
    first = a.seeds().copy()  # the construction's seed 3 (reset() moves on to 4)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    a.reset(seed=4)
    assert not np.array_equal(first, a.seeds())
    a.reset(seed=3)
    np.testing.assert_array_equal(first, a.seeds())


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_every_game_batches(name, variant):
    env = pjlab.BatchedEnv(name, 3, variant=variant, seed=1)
    obs, masks, players = env.reset()
    assert obs.shape == (3, env.observation_size) and obs.dtype == np.float32
    assert masks.shape == (3, env.num_actions) and masks.dtype == np.int8
    assert players.dtype == np.int64
    rng = np.random.default_rng(1)
    for _ in range(20):
        obs, masks, players, rewards, terminated = env.step(random_actions(masks, rng))
        assert masks.any(axis=1).all(), "every game has a legal move after reset"


def test_actions_may_be_lists_or_other_integer_types():
    env = pjlab.BatchedEnv("chomp", 2, variant="3x4")
    _, masks, _ = env.reset()
    actions = [int(np.flatnonzero(m)[0]) for m in masks]
    env.step(actions)
    _, masks, _ = env.observe()
    env.step(np.array([int(np.flatnonzero(m)[0]) for m in masks], dtype=np.int32))


def test_reset_without_a_seed_starts_new_games_reproducibly():
    a = pjlab.BatchedEnv("pijersi", 3, variant="half-random", seed=7)
    b = pjlab.BatchedEnv("pijersi", 3, variant="half-random", seed=8)
    first = [str(a.state(i)) for i in range(3)]
    obs, masks, _ = a.observe()
    a.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    a.reset()  # the seed 7 + 1
    assert [str(a.state(i)) for i in range(3)] != first
    assert [str(a.state(i)) for i in range(3)] == [str(b.state(i)) for i in range(3)]
    np.testing.assert_array_equal(a.seeds(), b.seeds())
    assert int(a.finished().sum()) == 0
