"""Seeded games played through the binding equal, move for move and observation for
observation, the same games played by the game crates in Rust
(crates/python/tests/trajectories.rs writes data/trajectories.txt)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

import pjlab

GOLDEN = Path(__file__).parent / "data" / "trajectories.txt"
PLIES = 80


def fnv(data: bytes) -> str:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def obs_hash(obs: np.ndarray) -> str:
    return fnv(obs.astype("<f4").tobytes())


def play(name: str, variant: str, seed: int) -> list[str]:
    """The same rule as the Rust test: legal action number (7919 * ply + seed) % len."""
    state = pjlab.load_game(name, variant).new_initial_state(seed)
    head = f"{name} {variant} {seed}"
    lines = []
    for ply in range(PLIES):
        # Chifoumi's chance events, drawn from the state's generator as the Rust game draws them.
        while state.is_chance_node():
            state.apply_seeded_chance()
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[(7919 * ply + seed) % len(legal)]
        player = state.current_player()
        text = state.action_to_string(action)
        if name == "chifoumi":
            lines.append(
                f"{head} {ply} {player} {action} {text} {obs_hash(state.observation_tensor(0))} "
                f"{obs_hash(state.observation_tensor(1))} {fnv(str(state).encode())}"
            )
        else:
            lines.append(
                f"{head} {ply} {player} {action} {text} "
                f"{obs_hash(state.observation_tensor(player))} {state}"
            )
        state.apply_action(action)
    returns = " ".join(f"{r:g}" for r in state.returns())
    tail = fnv(str(state).encode()) if name == "chifoumi" else str(state)
    lines.append(f"{head} end {returns} {tail}")
    return lines


def test_seeded_games_equal_the_rust_games():
    games: dict[tuple[str, str, int], list[str]] = defaultdict(list)
    for line in GOLDEN.read_text().splitlines():
        name, variant, seed = line.split(" ", 3)[:3]
        games[(name, variant, int(seed))].append(line)
    assert len(games) == 9
    assert {name for name, _, _ in games} == set(pjlab.registered_games())
    for (name, variant, seed), expected in games.items():
        got = play(name, variant, seed)
        for k, (a, b) in enumerate(zip(got, expected)):
            assert a == b, f"{name} {variant} seed {seed}, line {k}"
        assert len(got) == len(expected)
