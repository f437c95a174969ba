#!/usr/bin/env python3
"""Writes a tiny segmenter of more labels than the category mask can name, for the Image Segmenter's tests.

Tests/Fixtures/references/tflite/crafted/segmenter_300_labels.tflite: a 1x16x16x3 image input, one 1x1
CONV_2D to a 1x16x16x300 mask output whose last label's bias wins everywhere, the selfie segmenter's
metadata (its input normalisation) and a labels.txt of 300 labels. The category mask holds a label's index
in a byte, so label 299 would read as 43: the tool must refuse the category mask for it.

Run from the repository root, after `make models`:  python3 tools/references/make_segmenter_label_fixture.py
"""
import argparse
import os
import sys
import zipfile

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as s

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_tflite_fixtures import OUT, ROOT, buffer, litert, opcode, operator, tensor  # noqa: E402

LABELS = 300


def main():
    with open(os.path.join(ROOT, "models/selfie_segmenter.tflite"), "rb") as f:
        selfie = s.ModelT.InitFromObj(s.Model.GetRootAsModel(f.read(), 0))
    model = s.ModelT()
    model.version, model.description = 3, "VisionTasks crafted segmenter of 300 labels"
    bias = np.zeros(LABELS, np.float32)
    bias[-1] = 10
    weights = (np.random.RandomState(0).randn(LABELS, 1, 1, 3) * 0.1).astype(np.float32)
    metadata = s.BufferT()
    metadata.data = selfie.buffers[selfie.metadata[0].buffer].data
    model.buffers = [buffer(), buffer(), buffer(weights.ravel()), buffer(bias), buffer(), metadata]
    graph = s.SubGraphT()
    graph.name = "main"
    graph.tensors = [
        tensor("input_1", [1, 16, 16, 3], 1), tensor("filter", [LABELS, 1, 1, 3], 2),
        tensor("bias", [LABELS], 3), tensor("mask", [1, 16, 16, LABELS], 4),
    ]
    graph.inputs, graph.outputs = [0], [3]
    options = s.Conv2DOptionsT()
    options.padding, options.strideW, options.strideH = s.Padding.SAME, 1, 1
    options.dilationWFactor = options.dilationHFactor = 1
    graph.operators = [operator(0, [0, 1, 2], [3], s.BuiltinOptions.Conv2DOptions, options)]
    model.operatorCodes = [opcode(s.BuiltinOperator.CONV_2D)]
    model.subgraphs = [graph]
    entry = s.MetadataT()
    entry.name, entry.buffer = "TFLITE_METADATA", 5
    model.metadata = [entry]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    data = bytes(builder.Output())
    loads, result = litert(data, np.zeros((1, 16, 16, 3), np.float32))
    assert loads and int(result[0].argmax(-1).min()) == LABELS - 1, result
    path = os.path.join(OUT, "crafted", "segmenter_300_labels.tflite")
    with open(path, "wb") as f:
        f.write(data)
    with zipfile.ZipFile(path, "a") as z:
        info = zipfile.ZipInfo("labels.txt", date_time=(2024, 1, 1, 0, 0, 0))  # fixed: the file is reproducible
        z.writestr(info, "".join(f"label{i}\n" for i in range(LABELS)))
    print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
