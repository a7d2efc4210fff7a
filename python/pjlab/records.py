"""A run's Parquet records as pyarrow tables, with moves decoded.

The lab writes games and positions in two tables (schemas ``games/1`` and ``positions/1``,
``crates/selfplay/src/record.rs``): ``pjlab match`` / ``tournament`` write ``games.parquet``;
``pjlab train`` writes ``games/iter-NNNN.parquet`` and ``positions/iter-NNNN.parquet``. Both
readers return the file's columns as written, plus decoded ones:

- :func:`read_games`: ``actions`` (``list<int32>``), the dense action index of each move of
  ``moves`` (``list<string>``, the game's notation) replayed from ``start``.
- :func:`read_positions`: ``legal_moves`` and ``policy_moves`` (``list<string>``), the move
  texts of ``legal`` and ``policy_actions`` (action indices) in ``position``.

The Parquet is read by pyarrow (``pip install './python[records]'`` from the repository, or ``pip install pyarrow``); the moves are decoded in Rust
(:meth:`pjlab.Game.decode_games`, :meth:`pjlab.Game.action_texts`) with the game and variant
of each row. A file of another schema or without a column the reader needs, or a move that
does not replay, is a ``ValueError`` (a :class:`pjlab.Error`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ._pjlab import Game, load_game
from .errors import ArgumentError

SCHEMA_KEY = b"pjlab.schema"

# The columns each reader needs, by schema.
_COLUMNS = {
    "games/1": ("game", "variant", "start", "moves"),
    "positions/1": ("game_id", "position", "legal", "policy_actions"),
}


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "pjlab.read_games and read_positions need pyarrow: pip install pyarrow "
            "(or, from the repository, pip install './python[records]')"
        ) from e
    return pa, pq


def _files(path: str | os.PathLike[str], table: str) -> list[Path]:
    """The Parquet files of ``table`` (``games`` or ``positions``) that ``path`` names: a
    file, a directory of ``.parquet`` files, or a run directory holding ``<table>.parquet`` or
    ``<table>/``."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.exists():
        raise FileNotFoundError(f"no such file or directory: {path}")
    for candidate in (path / f"{table}.parquet", path / table):
        if candidate.is_file():
            return [candidate]
        if candidate.is_dir():
            path = candidate
            break
    files = sorted(p for p in path.glob("*.parquet") if p.is_file())
    if not files:
        raise FileNotFoundError(f"no {table} Parquet files in {path}")
    return files


def _read(files: list[Path], schema: str):
    """The files' tables, concatenated, after checking each one's schema key and the columns
    the readers need (:class:`pjlab.ArgumentError` naming the file)."""
    pa, pq = _pyarrow()
    tables = []
    for file in files:
        # The schema key is in the file's key-value metadata, beside Arrow's own.
        found = (pq.read_metadata(file).metadata or {}).get(SCHEMA_KEY)
        if found != schema.encode():
            shown = found.decode(errors="replace") if found else "none"
            raise ArgumentError(f"{file}: schema {shown!r}, expected {schema!r}")
        present = set(pq.read_schema(file).names)
        missing = [c for c in _COLUMNS[schema] if c not in present]
        if missing:
            raise ArgumentError(
                f"{file}: a {schema} file without column{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)}"
            )
        tables.append(pq.read_table(file))
    return pa.concat_tables(tables) if len(tables) > 1 else tables[0]


def _load(name: str, variant: str) -> Game:
    """The game of a record's row: its variant where ``load_game`` knows it, else the game's
    default one (self-play's Chomp setups ``full`` and ``random-diagram`` are no variants of
    their own: a Chomp position's text holds its bar, and the default variant's rules are
    every bar's)."""
    try:
        return load_game(name, variant)
    except KeyError:
        return load_game(name)


def _games(names: list[str], variants: list[str]) -> dict[tuple[str, str], Game]:
    return {key: _load(*key) for key in sorted(set(zip(names, variants)))}


def read_games(path: str | os.PathLike[str]):
    """A run's games table as a ``pyarrow.Table``, with ``actions`` added.

    ``path``: a ``games`` Parquet file (``games.parquet`` of a match), a directory of them
    (a training run's ``games/``), or a run directory holding either. Columns: ``game_id``,
    ``game``, ``variant``, ``setup_seed``, ``start`` (the starting position's text),
    ``moves`` (``list<string>``), ``result`` (1, 0, -1 from the first side's view),
    ``termination``, ``length``, ``network``, and ``actions`` (``list<int32>``: each move's
    action index, replayed from ``start`` under the row's game and variant; a
    :meth:`pjlab.Game.state_from_text` of ``start`` replays them with ``apply_action``).

    Raises ``FileNotFoundError`` when nothing is there, :class:`pjlab.ArgumentError` (a
    ``ValueError``) for another schema or a missing column (naming the file), ``ValueError`` for
    a move that does not replay (naming the row and the move).
    """
    pa, _ = _pyarrow()
    table = _read(_files(path, "games"), "games/1")
    names = table.column("game").to_pylist()
    variants = table.column("variant").to_pylist()
    starts = table.column("start").to_pylist()
    moves = table.column("moves").to_pylist()
    games = _games(names, variants)
    actions: list[list[int] | None] = [None] * table.num_rows
    for key, game in games.items():
        rows = [i for i, k in enumerate(zip(names, variants)) if k == key]
        decoded = game.decode_games([starts[i] for i in rows], [moves[i] for i in rows])
        for i, row in zip(rows, decoded):
            actions[i] = row
    return table.append_column("actions", pa.array(actions, type=pa.list_(pa.int32())))


def _positions_games(file: Path) -> dict[int, tuple[str, str]] | None:
    """The game and variant of each game id, from the games file beside a positions file
    (``positions/X.parquet`` has ``games/X.parquet``), if there is one."""
    games_file = file.parent.parent / "games" / file.name
    if file.parent.name != "positions" or not games_file.is_file():
        return None
    table = _read([games_file], "games/1")
    ids = table.column("game_id").to_pylist()
    keys = zip(table.column("game").to_pylist(), table.column("variant").to_pylist())
    return dict(zip(ids, keys))


def _run_game(file: Path) -> str | None:
    """The game named by the ``run.json`` of the run directory a positions file is in."""
    for directory in (file.parent, file.parent.parent):
        manifest = directory / "run.json"
        if manifest.is_file():
            return json.loads(manifest.read_text()).get("game")
    return None


def read_positions(path: str | os.PathLike[str], game: str | Game | None = None):
    """A run's positions table as a ``pyarrow.Table``, with the moves' texts added.

    ``path``: a ``positions`` Parquet file, a directory of them (a training run's
    ``positions/``), or a run directory. ``game`` (a name or a :class:`pjlab.Game`) is the game
    of every row; by default each row's game and variant come from the games file of the same
    name beside it (``games/iter-NNNN.parquet``), else from the run's ``run.json`` (the default
    variant). Columns: ``game_id``, ``ply``, ``position`` (the position's text), ``legal``
    (``list<uint16>``: the legal actions), ``policy_actions`` and ``policy_probs`` (the search
    policy's support and probabilities), ``search_value``, ``result`` (for the side to move),
    ``policy_target``, and ``legal_moves`` and ``policy_moves`` (``list<string>``: the move
    texts of ``legal`` and ``policy_actions``).

    Raises ``FileNotFoundError`` when nothing is there, :class:`pjlab.ArgumentError` (a
    ``ValueError``) for another schema or a missing column (naming the file), ``ValueError`` for
    an unknown game or an action that is not legal in its position.
    """
    pa, _ = _pyarrow()
    files = _files(path, "positions")
    tables = []
    for file in files:
        table = _read([file], "positions/1")
        ids = table.column("game_id").to_pylist()
        if isinstance(game, Game):
            keys = [(game.name, game.variant)] * len(ids)
        elif game is not None:
            keys = [(game, load_game(game).variant)] * len(ids)
        else:
            by_id = _positions_games(file)
            if by_id is not None:
                missing = [i for i in ids if i not in by_id]
                if missing:
                    raise ValueError(f"{file}: game {missing[0]} is not in its games file")
                keys = [by_id[i] for i in ids]
            else:
                name = _run_game(file)
                if name is None:
                    raise ValueError(
                        f"{file}: no games file or run.json beside it names the game: pass game=..."
                    )
                keys = [(name, load_game(name).variant)] * len(ids)
        positions = table.column("position").to_pylist()
        legal = table.column("legal").to_pylist()
        support = table.column("policy_actions").to_pylist()
        legal_moves: list[list[str] | None] = [None] * len(ids)
        policy_moves: list[list[str] | None] = [None] * len(ids)
        for key, handle in _games([k[0] for k in keys], [k[1] for k in keys]).items():
            rows = [i for i, k in enumerate(keys) if k == key]
            texts = [positions[i] for i in rows]
            for out, column in ((legal_moves, legal), (policy_moves, support)):
                decoded = handle.action_texts(texts, [column[i] for i in rows])
                for i, row in zip(rows, decoded):
                    out[i] = row
        strings = pa.list_(pa.string())
        table = table.append_column("legal_moves", pa.array(legal_moves, type=strings))
        table = table.append_column("policy_moves", pa.array(policy_moves, type=strings))
        tables.append(table)
    return pa.concat_tables(tables) if len(tables) > 1 else tables[0]
