"""Shared lists of the games and variants the tests walk."""

from __future__ import annotations

import pjlab

# Every game with every variant of the registry.
ALL_VARIANTS = [
    (name, variant)
    for name in pjlab.registered_games()
    for variant in pjlab.load_game(name).variants()
]
