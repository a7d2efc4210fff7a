"""A state draws itself as SVG (Jupyter's `_repr_svg_`), from the game crate's drawing: one piece
element per occupied cell, the last move marked."""

import re

import pytest

import pjlab


def pieces(svg: str) -> list[str]:
    """The cells of the picture's piece elements."""
    return re.findall(r'class="piece[^"]*"[^>]*data-cell="([^"]+)"', svg)


@pytest.mark.parametrize(
    "name,variant",
    [("pijersi", None), ("abalone", None), ("abalone", "doubles"), ("chomp", None)],
)
def test_a_state_draws_its_board_and_marks_the_last_move(name, variant):
    game = pjlab.load_game(name, variant=variant) if variant else pjlab.load_game(name)
    state = game.new_initial_state()
    svg = state.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert state._repr_svg_() == svg
    assert pieces(svg), "no piece drawn"
    # No cell carries two pieces' elements.
    assert len(set(pieces(svg))) == len(pieces(svg))
    assert 'class="last' not in svg
    state.apply_action(state.legal_actions()[0])
    assert 'class="last' in state.svg()
    # A copy keeps the mark; the picture changes with the position.
    assert state.clone().svg() == state.svg()
    assert state.svg() != svg


def test_abalone_draws_every_marble_once():
    # Every Abalone start has 14 marbles a side (the rules), each drawn once.
    state = pjlab.load_game("abalone").new_initial_state()
    drawn = pieces(state.svg())
    assert len(drawn) == 28 and len(set(drawn)) == 28, drawn


def test_chifoumi_has_no_picture():
    state = pjlab.load_game("chifoumi").new_initial_state()
    with pytest.raises(ValueError, match="no picture"):
        state.svg()
    assert state._repr_svg_() is None
