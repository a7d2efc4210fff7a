"""Shared lists of the games and variants the tests walk."""

from __future__ import annotations

import pjlab

# Every game with every variant of the registry.
ALL_VARIANTS = [
    (name, variant)
    for name in pjlab.registered_games()
    for variant in pjlab.load_game(name).variants()
]

# The perfect-information games, each in its default variant.
BOARD_GAMES = [name for name in pjlab.registered_games() if name != "chifoumi"]


def settle(state: pjlab.State) -> pjlab.State:
    """Draws every chance event due from the state's own seeded generator (Chifoumi's deal and
    duel draws), as the batches and the PettingZoo environment do; returns the state."""
    while state.is_chance_node():
        state.apply_seeded_chance()
    return state


def pjlab_binary() -> str:
    """The `pjlab` binary the records and arena tests run: $PJLAB_BIN (scripts/test-python.sh
    builds it and sets it), else target/release/pjlab of the repository."""
    import os
    from pathlib import Path

    import pytest

    path = os.environ.get("PJLAB_BIN") or str(
        Path(__file__).resolve().parents[2] / "target" / "release" / "pjlab"
    )
    if not os.access(path, os.X_OK):
        pytest.fail(f"no pjlab binary at {path}: run scripts/test-python.sh (or set PJLAB_BIN)")
    return path
