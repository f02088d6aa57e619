#!/usr/bin/env python3
"""make_lobby_seeds.py - writes the hand-made seeds of fuzz_lobby to
corpus/lobby/ (see the input format at the top of fuzz_lobby.c).

Each seed plays whole games. Who is front depends on the lobby's random
coin, so a move is offered by both players: the one whose turn it is plays
it, the other is refused. Run again after changing the input format.
"""
import os

SIZES = [5, 5, 6, 7, 8, 10, 15, 25]
GRACES = [0, 1, 999, 1000, 1001, 2500, 30000, 3600000]


def header(size, grace, rule=0, full_board=0, clock=1):
    return bytes([SIZES.index(size), rule | full_board << 1 |
                  GRACES.index(grace) << 2, clock >> 8 & 255, clock & 255])


def connect(k, name=1):
    return bytes([0, k, name])


def disconnect(p, leaving=0):
    return bytes([1, p, leaving])


def move(p, x, y):
    return bytes([2, p, x, y])


def both(x, y):
    """The move (x, y) offered by both connected players."""
    return move(0, x, y) + move(1, x, y)


def tick(step):
    return bytes([5, step])


def ping(p, claim=0):
    return bytes([4, p, claim])


def board(p, role_byte, edits):
    out = bytes([3, p, role_byte, len(edits)])
    for cell, value in edits:
        out += bytes([cell >> 8, cell & 255, value])
    return out


def restore(how, who, flags, moves):
    return bytes([6, how, who, flags, len(moves)]) + bytes(moves)


def five(size):
    """Front makes five on row 0, back answers on row 1."""
    out = b""
    for i in range(5):
        out += both(i, 0)
        if i < 4:
            out += both(i, 1)
    return out


def seeds():
    yield "five-15-no-grace", header(15, 0) + connect(0) + connect(1) + \
        five(15) + disconnect(0) + disconnect(0)
    yield "five-5-standard", header(5, 1000, rule=1) + connect(2, 3) + \
        connect(3, 4) + five(5) + ping(0) + ping(1, 1)
    # Player 0 drops mid-game, the other plays on, 0 returns in time.
    drop = header(15, 30000) + connect(0) + connect(1)
    for i in range(3):
        drop += both(i, 0) + both(i, 1)
    drop += disconnect(0) + tick(100) + both(3, 0) + connect(0, 2)
    drop += both(3, 1) + both(3, 0) + both(4, 1) + both(4, 0) + both(5, 0)
    yield "drop-and-return", drop
    # Player 1 drops and the grace runs out: forfeit by tick.
    yield "drop-and-forfeit", header(7, 2500) + connect(0) + connect(1) + \
        both(3, 3) + disconnect(1) + tick(20) + tick(40) + tick(1) + \
        disconnect(0)
    # Both drop; the first deadline forfeits; the second returns late.
    yield "both-away", header(8, 1000) + connect(0) + connect(1) + \
        both(1, 1) + disconnect(0) + tick(10) + disconnect(0) + \
        tick(11) + connect(1) + disconnect(0, 1)
    # Leaving on purpose forfeits at once even with a grace.
    yield "leave-forfeits", header(10, 30000) + connect(4) + connect(5) + \
        both(0, 0) + disconnect(1, 1) + disconnect(0, 1)
    # Takeover of a connected seat, then of the waiting third player.
    yield "takeover", header(6, 1001) + connect(0) + connect(1) + \
        connect(2) + both(2, 2) + connect(0, 5) + connect(2, 0) + \
        both(3, 3) + disconnect(2)
    # Seed-form boards: one new stone each, then a bad one.
    boards = header(5, 999) + connect(0) + connect(1)
    for role in (0, 1):
        boards += board(0, role, [(12, 1 + role)])
        boards += board(1, role, [(12, 1 + role)])
    boards += board(0, 0, [(0, 1), (1, 1)]) + board(1, 1, [(24, 2)])
    yield "seed-form-boards", boards
    # A full 5x5 board with no five: a draw.
    fill = "FBFBF" "FFBFB" "FBBBF" "BFBFB" "FBFBF"
    cells = {"F": [], "B": []}
    for i, c in enumerate(fill):
        cells[c].append(i)
    draw = header(5, 0, full_board=1) + connect(0) + connect(1)
    for turn in range(25):
        cell = cells["FB"[turn % 2]][turn // 2]
        draw += both(cell % 5, cell // 5)
    yield "full-board-draw", draw
    # A saved game of four moves, restored, resumed by both, finished:
    # (0,0) (0,1) (1,0) (1,1) as the 0th, 14th, 0th, 13th empty cell.
    resume = header(15, 30000) + restore(0, 0 + 6 * 1, 0 | 1 << 2 | 2 << 5,
                                         [0, 14, 0, 13])
    resume += connect(1) + connect(0) + tick(50)
    for i in range(2, 5):
        resume += both(i, 0) + both(i, 1)
    yield "restore-and-finish", resume
    # Restored and never resumed: both seats expire.
    yield "restore-and-expire", header(6, 2500) + \
        restore(1, 2 + 6 * 3, 2, [5, 5]) + tick(49) + tick(2) + connect(2)
    # Refused restores: bad id, wrong size, duplicate uid, over.
    yield "restore-refused", header(5, 1000) + connect(0) + \
        restore(4, 1 + 6 * 2, 0, []) + restore(0xf0, 1 + 6 * 2, 0, []) + \
        restore(0, 0 + 6 * 2, 0, []) + restore(0, 1 + 6 * 1, 0, []) + \
        restore(0, 1 + 6 * 2, 0, [0xff, 0xf1])
    # Moves off the board and out of turn, pings from a waiting player.
    yield "refusals", header(25, 1) + connect(0) + move(0, 1, 1) + \
        ping(0) + connect(1) + move(0, 0xf0, 3) + move(1, 0xf8, 0xf5) + \
        both(24, 24) + both(24, 24) + tick(0) + disconnect(0) + tick(1)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "corpus", "lobby")
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
