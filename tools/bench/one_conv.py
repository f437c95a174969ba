#!/usr/bin/env python3
"""One CONV_2D at a time, our engine against LiteRT 2.3.0: for each shape a model holding that convolution alone
(random weights, RELU, SAME padding) is written with LiteRT's own schema, then timed at --threads in alternating
rounds: `vision-tasks model benchmark` (its median over --runs calls) and LiteRT's Python interpreter (the
median of 7 batches of 40 invoke() calls, which adds Python's few microseconds a call). Prints each shape's medians
over the rounds and ours/LiteRT: where a whole model's ratio hides which layers are behind (issue 46's AVX2 host).

Usage: python3 tools/bench/one_conv.py [--tool .build/release/vision-tasks] [--rounds 11] [--runs 280]
       [--shapes 128x128:8-16,14x14:192-192/3,56x56:144-144/3/1/dw] [--threads 1]
A shape is HxW:IN-OUT, with /K for a KxK kernel (1 by default) and /K/S for stride S; a trailing /dw makes it a
DEPTHWISE_CONV_2D (IN = OUT, multiplier 1), e.g. 56x56:144-144/3/1/dw.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "references"))
from make_tflite_fixtures import buffer, opcode, operator, pack, s, tensor  # noqa: E402

# 1x1 convolutions from small to large K as the face, hand and pose models hold them, and a 3x3 one.
DEFAULT_SHAPES = "128x128:8-16,64x64:16-32,112x112:16-64,56x56:24-144,14x14:112-672,14x14:192-192,28x28:48-48/3"


def parse_shape(text):
    """(h, w, in, out, kernel, stride, depthwise) of `HxW:IN-OUT[/K[/S]][/dw]`."""
    m = re.fullmatch(r"(\d+)x(\d+):(\d+)-(\d+)(?:/(\d+)(?:/(\d+))?)?(/dw)?", text)
    if not m:
        raise SystemExit(f"one_conv: a shape is HxW:IN-OUT[/K[/S]][/dw], got {text!r}")
    h, w, cin, cout = (int(g) for g in m.groups()[:4])
    if m.group(7) and cin != cout:
        raise SystemExit(f"one_conv: a depthwise shape has IN = OUT, got {text!r}")
    return h, w, cin, cout, int(m.group(5) or 1), int(m.group(6) or 1), bool(m.group(7))


def conv_model(h, w, cin, cout, k, stride, depthwise=False):
    """A .tflite holding one CONV_2D (or DEPTHWISE_CONV_2D) of that shape (fixed random weights and bias, RELU,
    SAME)."""
    rng = np.random.default_rng(1)
    conv = s.DepthwiseConv2DOptionsT() if depthwise else s.Conv2DOptionsT()
    if depthwise:
        conv.depthMultiplier = 1
    conv.padding, conv.strideW, conv.strideH = s.Padding.SAME, stride, stride
    conv.fusedActivationFunction = s.ActivationFunctionType.RELU
    conv.dilationWFactor = conv.dilationHFactor = 1
    graph = s.SubGraphT()
    graph.name = "main"
    oh, ow = -(-h // stride), -(-w // stride)
    taps_in = 1 if depthwise else cin
    graph.tensors = [tensor("input", [1, h, w, cin], 1),
                     tensor("filter", [1, k, k, cout] if depthwise else [cout, k, k, cin], 2),
                     tensor("bias", [cout], 3), tensor("output", [1, oh, ow, cout], 0)]
    graph.inputs, graph.outputs = [0], [3]
    options = s.BuiltinOptions.DepthwiseConv2DOptions if depthwise else s.BuiltinOptions.Conv2DOptions
    graph.operators = [operator(0, [0, 1, 2], [3], options, conv)]
    model = s.ModelT()
    model.version = 3
    model.description = "tools/bench/one_conv.py"
    model.operatorCodes = [opcode(s.BuiltinOperator.DEPTHWISE_CONV_2D if depthwise else s.BuiltinOperator.CONV_2D)]
    model.subgraphs = [graph]
    model.buffers = [buffer(), buffer(), buffer(rng.normal(size=cout * k * k * taps_in) * 0.1),
                     buffer(rng.normal(size=cout) * 0.1)]
    return pack(model)


def litert_ms(path, threads):
    """LiteRT's median milliseconds per invoke() over 7 batches of 40 calls."""
    interpreter = Interpreter(model_path=path, num_threads=threads)
    interpreter.allocate_tensors()
    source = interpreter.get_input_details()[0]
    interpreter.set_tensor(source["index"], np.random.default_rng(2).normal(size=source["shape"]).astype(np.float32))
    for _ in range(20):
        interpreter.invoke()
    batches = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(40):
            interpreter.invoke()
        batches.append((time.perf_counter() - start) / 40 * 1e3)
    return statistics.median(batches)


def ours_ms(tool, path, threads, runs):
    """`vision-tasks model benchmark`'s median milliseconds."""
    run = subprocess.run([tool, "model", "benchmark", path, "--threads", str(threads), "--runs", str(runs)],
                         capture_output=True, text=True)
    found = re.search(r"median ([0-9.]+) ms", run.stdout)
    if run.returncode != 0 or not found:
        raise SystemExit(f"one_conv: {tool} model benchmark {path} failed ({run.returncode}):\n{run.stderr}")
    return float(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "vision-tasks"))
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--runs", type=int, default=280)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    args = parser.parse_args()
    if not os.access(args.tool, os.X_OK):
        raise SystemExit(f"one_conv: no vision-tasks at {args.tool} (swift build -c release --product vision-tasks)")
    if args.rounds < 1 or args.runs < 1 or args.threads < 1:
        raise SystemExit("one_conv: --rounds, --runs and --threads must be at least 1")
    shapes = [parse_shape(text) for text in args.shapes.split(",")]
    print(f"{'shape':24s} {'ours ms':>9s} {'LiteRT ms':>10s} {'ours/LiteRT':>12s}   (ranges over {args.rounds} rounds, "
          f"{args.threads} thread(s))")
    with tempfile.TemporaryDirectory(prefix="one-conv-") as scratch:
        for h, w, cin, cout, k, stride, depthwise in shapes:
            path = os.path.join(scratch, f"conv_{h}x{w}_{cin}_{cout}_k{k}_s{stride}{'_dw' if depthwise else ''}.tflite")
            with open(path, "wb") as f:
                f.write(conv_model(h, w, cin, cout, k, stride, depthwise))
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(ours_ms(args.tool, path, args.threads, args.runs))
                theirs.append(litert_ms(path, args.threads))
            a, b = statistics.median(ours), statistics.median(theirs)
            name = f"{h}x{w} {cin}->{cout} {k}x{k}" + (f"/{stride}" if stride > 1 else "") + (" dw" if depthwise else "")
            print(f"{name:24s} {a:9.4f} {b:10.4f} {a / b:12.2f}   (ours {min(ours):.3f}-{max(ours):.3f}, "
                  f"LiteRT {min(theirs):.3f}-{max(theirs):.3f})")


if __name__ == "__main__":
    main()
