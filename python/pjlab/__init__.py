"""The lab's board games for Python.

Games with OpenSpiel's vocabulary::

    import pjlab
    game = pjlab.load_game("abalone", variant="doubles")
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

PettingZoo AEC environments in :mod:`pjlab.pettingzoo`, and :class:`BatchedEnv` for N games
stepped together in Rust with numpy arrays out.

Every refusal is an exception: ``KeyError`` for an unknown game or variant, ``ValueError`` for
an illegal or out-of-range action, a bad player or a wrong-shaped array; the state is then
unchanged.
"""

from __future__ import annotations

from ._pjlab import (
    TERMINAL_PLAYER,
    BatchedEnv,
    Game,
    State,
    load_game,
    registered_games,
)

__all__ = [
    "TERMINAL_PLAYER",
    "BatchedEnv",
    "Game",
    "State",
    "load_game",
    "registered_games",
]
