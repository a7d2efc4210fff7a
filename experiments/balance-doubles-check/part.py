"""Where two runs' games of the same ids part: for each id, the first ply at which their moves
differ (or `same`), the two lengths and results. Reads the games.txt files `pjlab report` writes.

    python3 part.py A/games.txt B/games.txt
"""

import re
import sys


def games(path):
    """Each game's id -> (result, moves), from games.txt."""
    out = {}
    for block in re.split(r"(?m)^(?=\[game )", open(path).read()):
        head = re.match(r"\[game (\d+) \|(.*)\]", block)
        if not head:
            continue
        fields = [f.strip() for f in head.group(2).split("|")]
        moves = []
        for line in block.splitlines()[1:]:
            line = line.strip()
            if re.match(r"^\d+\.", line):
                moves += line.split(".", 1)[1].split()
        out[int(head.group(1))] = (fields[3], moves)
    return out


def main():
    a, b = games(sys.argv[1]), games(sys.argv[2])
    same = 0
    ids = sorted(set(a) & set(b))
    for gid in ids:
        (ra, ma), (rb, mb) = a[gid], b[gid]
        if ma == mb:
            same += 1
            print(f"game {gid}: same, {len(ma)} plies, {ra}")
            continue
        part = next(i for i in range(min(len(ma), len(mb)) + 1)
                    if i == min(len(ma), len(mb)) or ma[i] != mb[i])
        print(f"game {gid}: part at ply {part + 1}, {len(ma)} and {len(mb)} plies, "
              f"{ra} and {rb}")
    print(f"same: {same} of {len(ids)}")


if __name__ == "__main__":
    main()
