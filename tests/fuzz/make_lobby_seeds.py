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


def header(size, grace, rule=0, full_board=0, clock=1, timed=0, fill=0,
           short_first=0):
    return bytes([SIZES.index(size) | short_first << 3,
                  rule | full_board << 1 | GRACES.index(grace) << 2 |
                  timed << 5 | fill << 6, clock >> 8 & 255, clock & 255])


# Protocol 2's operations: one byte 0xa0 + N, then their arguments.
def join(k, name=1, pool=0, ai=0, level=0):
    """pool: 0 the default, 1 another size, 2 10+0, 3 10+2 on 6x6."""
    return bytes([0xa0, k, name, pool | ai << 2 | level << 3])


def resign(p):
    return bytes([0xa1, p, 0])


def abort(p):
    return bytes([0xa1, p, 1])


WHAT = {"takeback": 0, "draw": 1, "rematch": 2}


def offer(p, what):
    return bytes([0xa2, p, WHAT[what]])


def redo(p):
    return bytes([0xa2, p, 255])


def answer(p, what, accept):
    return bytes([0xa3, p, WHAT[what] | accept << 2])


def emote(p, word):
    """word: 0-7 the list, 8-12 bad ones, 255 none."""
    return bytes([0xa4, p, word])


def text(p, t):
    return bytes([0xa5, p, t])


def engine(p, pick):
    """pick: an empty cell; 254 an occupied one; 255 a forfeit."""
    return bytes([0xa6, p, pick])


def deadline(d=1):
    """To the next deadline (d % 3 - 1 ms); no tick when d & 4."""
    return bytes([0xa7, d])


# Spectators: one byte 0xf8 + N (N % 3), then their arguments.
def watch(w=0):
    """The (w % open)-th open room; an unknown id when w % 4 is 3 (the
    last closed room's when w & 4)."""
    return bytes([0xf8, w])


def unwatch(s=0):
    return bytes([0xf9, s])


def spec_request(s=0, r=0):
    """r % 10: ping, move, board, resign, abort, offer, answer, emote,
    redo, winner claim."""
    return bytes([0xfa, s, r])


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


def play(p, pick):
    return bytes([7, p, pick])


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

    # Protocol 2.
    both_pools = header(15, 30000) + join(0, 1, 2) + join(1, 2, 2)
    yield "timed-flag", both_pools + both(0, 0) + both(1, 1) + \
        both(2, 2) + deadline(1) + both(3, 3) + offer(0, "rematch") + \
        offer(1, "rematch") + answer(0, "rematch", 1) + \
        answer(1, "rematch", 1) + deadline(1)
    yield "first-move-abort", header(15, 30000, short_first=1) + \
        join(0, 1, 3) + join(1, 1, 3) + deadline(1) + join(2, 1, 2) + \
        join(3, 1, 2) + both(0, 0) + deadline(5) + both(1, 1)
    yield "late-request", both_pools + both(0, 0) + both(1, 1) + \
        deadline(6) + both(2, 2) + resign(0) + emote(1, 0)
    yield "timed-default-away", header(7, 2500, timed=1) + connect(0) + \
        connect(1) + both(0, 0) + both(1, 1) + disconnect(0) + \
        deadline(0) + deadline(1) + deadline(2)
    yield "resign", header(15, 1000) + connect(0) + connect(1) + \
        both(0, 0) + resign(0) + resign(1) + offer(0, "draw")
    yield "abort", header(8, 1000) + connect(0) + connect(1) + abort(0) + \
        abort(1) + connect(2) + connect(3) + both(0, 0) + both(1, 1) + \
        abort(0) + abort(1)
    yield "draw-agreed", header(15, 1000) + connect(0) + connect(1) + \
        both(0, 0) + offer(0, "draw") + offer(1, "draw") + \
        answer(0, "draw", 1) + answer(1, "draw", 1)
    yield "draw-declined", header(15, 1000) + connect(0) + connect(1) + \
        offer(0, "draw") + answer(1, "draw", 0) + answer(0, "draw", 0) + \
        offer(0, "draw") + offer(1, "draw") + tick(199) + \
        offer(0, "draw") + offer(1, "draw") + both(0, 0) + \
        offer(0, "draw") + disconnect(1, 1)
    yield "takeback", header(10, 1000) + connect(0) + connect(1) + \
        both(0, 0) + both(1, 1) + both(2, 2) + offer(0, "takeback") + \
        offer(1, "takeback") + answer(0, "takeback", 1) + \
        answer(1, "takeback", 1) + both(5, 5) + redo(0)
    yield "rematch", header(15, 1000) + connect(0) + connect(1) + \
        five(15) + offer(0, "rematch") + offer(1, "rematch") + \
        answer(0, "rematch", 1) + answer(1, "rematch", 1) + both(7, 7) + \
        resign(0) + offer(0, "rematch") + answer(1, "rematch", 0) + \
        answer(0, "rematch", 0) + disconnect(0)
    emotes = header(15, 1000) + connect(0) + emote(0, 0) + connect(1)
    for word in list(range(13)) + [255]:
        emotes += emote(0, word) + emote(1, word) + tick(61)
    yield "emotes", emotes
    texts = header(15, 1000) + connect(0) + text(0, 0) + connect(1)
    for t in range(16):
        texts += text(0, t) + text(1, t)
    yield "texts", texts + both(1, 1) + text(0, 3) + text(1, 11) + \
        text(0, 11)
    ai = header(15, 30000) + join(0, 1, 0, 1) + engine(0, 0)
    for i in range(6):
        ai += move(0, i, 0) + engine(0, 17 + i)
    ai += offer(0, "takeback") + redo(0) + offer(0, "draw") + \
        engine(0, 254) + offer(0, "rematch") + engine(0, 3) + \
        disconnect(0) + connect(0) + engine(0, 255)
    yield "engine", ai
    yield "engine-timed", header(15, 30000) + join(1, 1, 3, 1, 2) + \
        engine(0, 1) + play(0, 0) + engine(0, 2) + play(0, 5) + \
        deadline(1) + offer(0, "rematch") + deadline(1)
    yield "engine-fill", header(15, 1000, fill=1) + connect(0) + \
        join(1, 1, 1) + tick(199) + tick(250) + engine(0, 3) + \
        engine(1, 4) + play(0, 1) + play(1, 2)

    # Spectators.
    watched = header(15, 1000) + watch(3) + connect(0) + connect(1) + \
        both(0, 0) + watch(0) + watch(0) + tick(4) + watch(0) + watch(0)
    for r in range(10):
        watched += spec_request(r, r)
    watched += unwatch(1) + tick(10) + tick(10) + watch(0) + five(15) + \
        disconnect(0, 1) + spec_request(0, 0) + disconnect(0, 1) + \
        watch(7) + unwatch(0) + unwatch(0)
    yield "watch-game", watched
    yield "watch-rematch", header(15, 1000) + connect(0) + connect(1) + \
        watch(0) + both(0, 0) + watch(0) + five(15) + watch(0) + \
        offer(0, "rematch") + offer(1, "rematch") + \
        answer(0, "rematch", 1) + answer(1, "rematch", 1) + watch(0) + \
        tick(30) + both(7, 7) + unwatch(2) + resign(0) + emote(0, 0) + \
        emote(1, 0) + disconnect(0, 1) + disconnect(0, 1) + watch(7)
    yield "watch-away", header(15, 30000) + connect(0) + connect(1) + \
        both(0, 0) + both(1, 1) + watch(0) + disconnect(0) + tick(100) + \
        watch(0) + connect(0) + connect(1) + watch(0) + tick(30) + \
        restore(0, 2 + 6 * 3, 0, [0, 14]) + watch(1) + watch(1) + \
        tick(199) + unwatch(0)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "corpus", "lobby")
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
