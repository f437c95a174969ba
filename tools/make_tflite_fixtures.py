#!/usr/bin/env python3
"""Writes small hand-built .tflite models for the TFLite reader's tests, and what LiteRT 2.3.0 makes of them.

Tests/Fixtures/references/tflite/crafted/<name>.tflite: one valid model (CONV_2D, ADD, RESHAPE, GELU, with
a builtin code above 127 stored only in the int32 field), the same with its filter stored after the
FlatBuffer (Buffer.offset/size), and copies broken in one way each (an operator input, an opcode index, a
buffer index, a graph output out of range; constant data of the wrong size; an external buffer past the end).
crafted/sparse_filter.tflite marks the filter sparse (its buffer is then shorter than its shape).
Tests/Fixtures/references/tflite/crafted.json records, for each, whether LiteRT loads and runs it, and for
the valid one its outputs on a fixed input, so the tests can check the reader agrees with LiteRT.

Tests/Fixtures/references/tflite/bundle.task: a small zip as MediaPipe bundles are (stored entries), with one
deflated entry and a nested bundle, for the ModelBundle tests.

Built with the flatc-generated object API of the TFLite schema that ships with ai-edge-litert.
Run from the repository root:  python3 tools/make_tflite_fixtures.py
"""
import copy
import io
import json
import os
import zipfile

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as s
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/Fixtures/references/tflite")


def tensor(name, shape, buffer, dtype=s.TensorType.FLOAT32):
    t = s.TensorT()
    t.name, t.shape, t.buffer, t.type = name, shape, buffer, dtype
    return t


def buffer(values=None):
    b = s.BufferT()
    if values is not None:
        b.data = list(np.asarray(values, dtype=np.float32).tobytes())
    return b


def opcode(code):
    c = s.OperatorCodeT()
    c.builtinCode = code
    c.deprecatedBuiltinCode = min(code, s.BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
    c.version = 1
    return c


def operator(index, inputs, outputs, options_type=0, options=None):
    op = s.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = index, inputs, outputs
    op.builtinOptionsType, op.builtinOptions = options_type, options
    return op


def valid_model():
    rng = np.random.default_rng(7)
    conv = s.Conv2DOptionsT()
    conv.padding, conv.strideW, conv.strideH = s.Padding.SAME, 1, 1
    conv.fusedActivationFunction = s.ActivationFunctionType.RELU
    conv.dilationWFactor = conv.dilationHFactor = 1
    add = s.AddOptionsT()
    add.fusedActivationFunction = s.ActivationFunctionType.RELU6
    reshape = s.ReshapeOptionsT()
    reshape.newShape = [1, 32]

    graph = s.SubGraphT()
    graph.name = "main"
    graph.tensors = [
        tensor("input", [1, 4, 4, 1], 1),
        tensor("filter", [2, 3, 3, 1], 2),
        tensor("bias", [2], 3),
        tensor("conv", [1, 4, 4, 2], 0),
        tensor("offset", [2], 4),
        tensor("sum", [1, 4, 4, 2], 0),
        tensor("flat", [1, 32], 0),
        tensor("shape", [2], 5, s.TensorType.INT32),
        tensor("output", [1, 32], 0),
    ]
    graph.inputs, graph.outputs = [0], [8]
    graph.operators = [
        operator(0, [0, 1, 2], [3], s.BuiltinOptions.Conv2DOptions, conv),
        operator(1, [3, 4], [5], s.BuiltinOptions.AddOptions, add),
        operator(2, [5, 7], [6], s.BuiltinOptions.ReshapeOptions, reshape),
        operator(3, [6], [8]),
    ]
    shape_buffer = s.BufferT()
    shape_buffer.data = list(np.array([1, 32], dtype=np.int32).tobytes())
    model = s.ModelT()
    model.version = 3
    model.description = "VisionTasks crafted test model"
    model.operatorCodes = [opcode(s.BuiltinOperator.CONV_2D), opcode(s.BuiltinOperator.ADD),
                           opcode(s.BuiltinOperator.RESHAPE), opcode(s.BuiltinOperator.GELU)]
    model.subgraphs = [graph]
    model.buffers = [buffer(), buffer(), buffer(rng.normal(size=18)), buffer([0.1, -0.2]),
                     buffer([0.5, 1.5]), shape_buffer]
    return model


def pack(model):
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def broken_variants(model):
    def variant(change):
        m = copy.deepcopy(model)
        change(m)
        return m
    g = lambda m: m.subgraphs[0]
    return {
        "operator_input_out_of_range": variant(lambda m: setattr(g(m).operators[1], "inputs", [3, 99])),
        "opcode_index_out_of_range": variant(lambda m: setattr(g(m).operators[0], "opcodeIndex", 9)),
        "buffer_index_out_of_range": variant(lambda m: setattr(g(m).tensors[1], "buffer", 40)),
        "graph_output_out_of_range": variant(lambda m: setattr(g(m), "outputs", [12])),
        "constant_size_mismatch": variant(lambda m: setattr(m.buffers[3], "data", m.buffers[3].data[:4])),
    }


def with_external_filter(model, past_end=0):
    """The model with the filter's bytes stored after the FlatBuffer (Buffer.offset/size, as >2 GB models do)."""
    m = copy.deepcopy(model)
    filter_bytes = bytes(m.buffers[2].data)
    m.buffers[2].data = None
    m.buffers[2].offset, m.buffers[2].size = 1 << 20, len(filter_bytes)
    length = len(pack(m))
    start = (length + 15) // 16 * 16
    m.buffers[2].offset = start + past_end
    data = pack(m)
    assert len(data) == length
    return data + bytes(start - length) + filter_bytes


def with_sparse_filter(model):
    """The model with its filter marked sparse (schema `sparsity`) and stored in fewer bytes than its shape."""
    m = copy.deepcopy(model)
    sparsity = s.SparsityParametersT()
    sparsity.traversalOrder, sparsity.blockMap = [0, 1, 2, 3], []
    dense = s.DimensionMetadataT()
    dense.format, dense.denseSize = s.DimensionType.DENSE, 2
    sparsity.dimMetadata = [dense]
    m.subgraphs[0].tensors[1].sparsity = sparsity
    m.buffers[2].data = m.buffers[2].data[:40]
    return pack(m)


def litert(data, feed=None):
    """(loads, outputs): whether LiteRT builds and runs the model, and its output on `feed`."""
    try:
        interpreter = Interpreter(model_content=data)
        interpreter.allocate_tensors()
        if feed is not None:
            interpreter.set_tensor(interpreter.get_input_details()[0]["index"], feed)
        interpreter.invoke()
        return True, interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    except Exception as error:  # LiteRT raises ValueError/RuntimeError on a bad model
        return False, str(error)


def write_bundle(valid):
    def add(z, name, data, method=zipfile.ZIP_STORED):
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))  # fixed, so the file is reproducible
        z.writestr(info, data, compress_type=method)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        add(z, "model.tflite", valid)
        add(z, "notes.txt", "nested bundle\n")
    with zipfile.ZipFile(os.path.join(OUT, "bundle.task"), "w") as z:
        add(z, "valid.tflite", valid)
        add(z, "labels.txt", "cat\ndog\n" * 20, zipfile.ZIP_DEFLATED)
        add(z, "inner.task", inner.getvalue())


def main():
    os.makedirs(os.path.join(OUT, "crafted"), exist_ok=True)
    model = valid_model()
    feed = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 4, 4, 1)
    records = []
    variants = [("valid", pack(model))] + [(name, pack(m)) for name, m in broken_variants(model).items()]
    variants += [("valid_external_buffer", with_external_filter(model)),
                 ("external_buffer_past_end", with_external_filter(model, past_end=64))]
    for name, data in variants:
        with open(os.path.join(OUT, "crafted", name + ".tflite"), "wb") as f:
            f.write(data)
        loads, result = litert(data, feed if name.startswith("valid") else None)
        record = {"name": name, "litertLoads": loads}
        if name.startswith("valid"):
            assert loads, result
            record["input"] = feed.ravel().tolist()
            record["output"] = result.ravel().tolist()
        else:
            record["litertError"] = result.splitlines()[0] if isinstance(result, str) else None
        records.append(record)
    with open(os.path.join(OUT, "crafted.json"), "w") as f:
        json.dump({"generator": "tools/make_tflite_fixtures.py (ai-edge-litert 2.3.0)", "models": records}, f, indent=1)
        f.write("\n")
    write_bundle(pack(model))
    # Not run by LiteRT (CONV_2D does not take sparse filters); only the reader's `isSparse` is tested on it.
    with open(os.path.join(OUT, "crafted", "sparse_filter.tflite"), "wb") as f:
        f.write(with_sparse_filter(model))
    for r in records:
        print(r["name"], r["litertLoads"], r.get("litertError"))


if __name__ == "__main__":
    main()
