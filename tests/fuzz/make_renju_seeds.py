#!/usr/bin/env python3
"""make_renju_seeds.py - writes the seeds of fuzz_renju to corpus/renju/
(see the input format at the top of fuzz_renju.c): one per position of
tests/renju/positions.txt, its checked points the points judged, and a few
of other board sizes. Run again after changing the fixture or the format.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "renju", "positions.txt")
CORPUS = os.path.join(HERE, "corpus", "renju")
COLUMNS = "ABCDEFGHIJKLMNO"


def seed(size, stones, points, keep_fives=False):
    """stones: (x, y, 'X' or 'O'); points: (x, y), -1 and size allowed."""
    assert len(stones) < 128
    out = bytes([0 if size == 15 else 0xc0 + size - 5,
                 len(stones) | (0x80 if keep_fives else 0)])
    for x, y, stone in stones:
        out += bytes([x | (0x80 if stone == "O" else 0), y])
    for x, y in points:
        out += bytes([x + 1, y + 1])
    return out


def fixture_seeds():
    """(name, bytes) of every position of the fixture."""
    seeds = []
    stones, points, name, row = [], [], None, None
    for line in open(FIXTURE):
        line = line.rstrip("\n")
        if line.startswith("position: "):
            name = re.sub(r"[^a-z0-9]+", "-", line[10:].lower()).strip("-")
            stones, points, row = [], [], 0
        elif name and row is not None and re.match(r"^[ 1][0-9] ", line):
            for x in range(15):
                cell = line[3 + 2 * x]
                if cell in "XO":
                    stones.append((x, row, cell))
            row += 1
        elif line.startswith("check: "):
            point = line.split()[1]
            points.append((COLUMNS.index(point[0]), 15 - int(point[1:])))
        elif line == "end":
            seeds.append((name, seed(15, stones, points)))
            name = None
    return seeds


def main():
    os.makedirs(CORPUS, exist_ok=True)
    seeds = fixture_seeds()
    # The smallest board: a cross in its middle (too small for a three),
    # every point judged and one past each edge.
    seeds.append(("size-5-cross",
                  seed(5, [(1, 2, "X"), (3, 2, "X"), (2, 1, "X"),
                           (2, 3, "X")],
                       [(x, y) for y in range(-1, 6) for x in range(-1, 6)])))
    # The largest board: a double four in one line near its far corner.
    seeds.append(("size-25-double-four-in-one-line",
                  seed(25, [(16, 22, "X"), (18, 22, "X"), (20, 22, "X"),
                            (22, 22, "X"), (24, 24, "O")],
                       [(19, 22), (17, 22), (21, 22), (24, 23), (25, 25)])))
    # A black five already on the board: judged, not compared.
    seeds.append(("black-five-kept",
                  seed(15, [(x, 7, "X") for x in range(3, 8)] +
                       [(9, 7, "X")],
                       [(8, 7), (2, 7), (7, 8)], keep_fives=True)))
    for name, data in seeds:
        with open(os.path.join(CORPUS, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} seeds in {CORPUS}")


main()
