"""Does the lab's alpha-beta search a doubles-nojunction position as it searches the same
position of the two-player Belgian daisy? For one recorded doubles-nojunction game, every
seventh position is rebuilt under both rules (`pjlab replay` of the game's first moves) and
searched at depth 3 from a fresh agent (`pjlab analyse`): best move, score and nodes; and its
move tree counted to depth 2 under each rule set (`pjlab perft`), which must be the same.

    python3 same-search.py PJLAB GAMES_TXT GAME_ID > same-search.txt

PJLAB must be a build from before commit db4c9fe (its parent 96efcb2 or an older one): from
db4c9fe on, `pjlab replay` refuses a record without a move ("holds no game"), which the first
position (after 0 plies) is.
"""

import re
import subprocess
import sys

from part import games


def position(pjlab, variant, moves):
    """The position after `moves` from the start of `variant`, as position text."""
    text = " ".join(
        f"{i // 2 + 1}.{moves[i]}" + (f" {moves[i + 1]}" if i + 1 < len(moves) else "")
        for i in range(0, len(moves), 2)
    )
    out = subprocess.run(
        [pjlab, "-q", "replay", "--game", "abalone", "--variant", variant, "-"],
        input=text, capture_output=True, text=True, check=True,
    ).stdout.strip().splitlines()
    return out[-2]


def search(pjlab, text):
    """Best move, score and nodes of alpha-beta depth 3 on the position `text`."""
    out = subprocess.run(
        [pjlab, "analyse", "--game", "abalone", "--position", text, "--agent",
         "alphabeta:depth=3"],
        capture_output=True, text=True, check=True,
    ).stdout
    fields = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
    nodes = re.search(r"(\d+) nodes", fields["effort"]).group(1)
    return fields["best"], fields["score"], nodes


def perft(pjlab, variant, text):
    """The number of move sequences of two plies from the position `text` under `variant`."""
    out = subprocess.run(
        [pjlab, "-q", "perft", "--game", "abalone", "--variant", variant, "--position", text,
         "--depth", "2"],
        capture_output=True, text=True, check=True,
    ).stdout
    return out.strip().splitlines()[-1]


def main():
    pjlab, path, gid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    _, moves = games(path)[gid]
    same = same_moves = compared = 0
    for k in range(0, len(moves), 7):
        texts = {v: position(pjlab, v, moves[:k]) for v in ("belgian-daisy", "doubles-nojunction")}
        two, four = (search(pjlab, texts[v]) for v in texts)
        trees = [perft(pjlab, v, t) for v, t in texts.items()]
        compared += 1
        same += two == four
        same_moves += trees[0] == trees[1]
        print(f"after {k} plies: belgian-daisy {' '.join(two)}, perft(2) {trees[0]}; "
              f"doubles-nojunction {' '.join(four)}, perft(2) {trees[1]}"
              f"{'' if two == four else ' DIFFERS'}")
    print(f"same search: {same} of {compared}; same perft(2): {same_moves} of {compared}")


if __name__ == "__main__":
    main()
