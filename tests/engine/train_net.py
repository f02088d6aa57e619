#!/usr/bin/env python3
"""train_net.py - fits the learnt evaluation (core/engine/engine_net.c).

    build/tune-eval --dump POSITIONS.txt GAMES.log...
    python3 tests/engine/train_net.py POSITIONS.txt... > core/engine/engine_net_weights.h

Reads the positions `tune-eval --dump` wrote (files ending in .gz are
read compressed; one position a line: the game's hash,
the result for the side to move, the stones, then the network's inputs:
the side to move's NET_FEATURES counts and the other's), keeps each
position of a game once however many logs hold the game, holds out the
games whose hash is a multiple of four, and fits one hidden layer of
NET_HIDDEN (ReLU) and a logistic output to the results: Adam on the log
loss, batches of 256, 28 passes, the step cut to 0.3 times at passes 16
and 22. The pass with the lowest held-out loss is written, as C, with the
inputs' scaling folded into the first layer, so the engine feeds it raw
counts. The seed is fixed: the same positions give the same weights.

Needs numpy (Debian: python3-numpy). A tool for the engine's authors,
not part of the build or the tests.
"""
import sys

import numpy as np

HIDDEN = 16
SEED = 7
PASSES = 28
STEP = 1e-3
STEP_CUTS = (16, 22)
L2 = 1e-5
BATCH = 256

HEADER = """/*
 * engine_net_weights.h - the learnt evaluation's weights (engine_net.c),
 * written by tests/engine/train_net.py; see ENGINE.md for the games and
 * the command. Rows of net_w1: the mover's NET_FEATURES inputs, then the
 * other's, in net_features()' order; the inputs are raw counts (the
 * trainer's scaling is folded into the weights).
 */
/* written by a program, one row a line */
/* clang-format off */
"""


def log_loss(p, y):
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def predict(inputs, params):
    hidden = np.maximum(inputs @ params[0] + params[1], 0)
    return 1 / (1 + np.exp(-(hidden @ params[2] + params[3][0])))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: train_net.py POSITIONS.txt... > engine_net_weights.h")
    raw = np.concatenate([np.loadtxt(path, dtype=np.float64, ndmin=2)
                          for path in sys.argv[1:]])
    game = raw[:, 0].astype(np.int64)
    stones = raw[:, 2].astype(np.int64)
    # each position of a game once: by game and stones
    _, first = np.unique(game * 1000 + stones, return_index=True)
    game, result, counts = game[first], raw[first, 1], raw[first, 3:]
    held = game % 4 == 0
    fit = ~held
    mean = counts[fit].mean(0)
    spread = counts[fit].std(0) + 1e-6
    scaled = (counts - mean) / spread

    rng = np.random.default_rng(SEED)
    inputs = scaled.shape[1]
    params = [rng.normal(0, 1 / np.sqrt(inputs), (inputs, HIDDEN)),
              np.zeros(HIDDEN),
              rng.normal(0, 1 / np.sqrt(HIDDEN), HIDDEN),
              np.zeros(1)]
    moment = [np.zeros_like(p) for p in params]
    square = [np.zeros_like(p) for p in params]
    steps = 0
    step = STEP
    fit_inputs, fit_results = scaled[fit], result[fit]
    best_loss, best = 9.0, None
    for done in range(PASSES):
        if done in STEP_CUTS:
            step *= 0.3
        order = rng.permutation(len(fit_results))
        for start in range(0, len(fit_results), BATCH):
            batch = order[start:start + BATCH]
            x, y = fit_inputs[batch], fit_results[batch]
            hidden = np.maximum(x @ params[0] + params[1], 0)
            p = 1 / (1 + np.exp(-(hidden @ params[2] + params[3][0])))
            d = (p - y) / len(y)
            grads = [None] * 4
            grads[2] = hidden.T @ d + L2 * params[2]
            grads[3] = np.array([d.sum()])
            d_hidden = np.outer(d, params[2]) * (hidden > 0)
            grads[0] = x.T @ d_hidden + L2 * params[0]
            grads[1] = d_hidden.sum(0)
            steps += 1
            for i in range(4):
                moment[i] = 0.9 * moment[i] + 0.1 * grads[i]
                square[i] = 0.999 * square[i] + 0.001 * grads[i] ** 2
                params[i] -= step * (moment[i] / (1 - 0.9 ** steps)) / (
                    np.sqrt(square[i] / (1 - 0.999 ** steps)) + 1e-8)
        held_loss = log_loss(predict(scaled[held], params), result[held])
        print("pass %d: log loss %.5f, held out %.5f" % (
            done, log_loss(predict(fit_inputs, params), fit_results),
            held_loss), file=sys.stderr)
        if held_loss < best_loss:
            best_loss, best = held_loss, [p.copy() for p in params]

    w1 = best[0] / spread[:, None]
    b1 = best[1] - (mean / spread) @ best[0]

    def row(values):
        return ", ".join("%.6g" % v for v in values)

    out = sys.stdout
    out.write(HEADER)
    out.write("/* %d positions, held-out log loss %.5f */\n" % (
        len(result), best_loss))
    out.write("static const float net_w1[2 * NET_FEATURES][NET_HIDDEN] = {\n")
    for weights in w1:
        out.write("\t{ %s },\n" % row(weights))
    out.write("};\n")
    out.write("static const float net_b1[NET_HIDDEN] = { %s };\n" % row(b1))
    out.write("static const float net_w2[NET_HIDDEN] = { %s };\n" % row(
        best[2]))
    out.write("static const float net_b2 = %.6g;\n" % best[3][0])
    out.write("/* clang-format on */\n")


if __name__ == "__main__":
    main()
