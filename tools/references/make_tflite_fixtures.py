#!/usr/bin/env python3
"""Writes small hand-built .tflite models for the TFLite reader's tests, and what LiteRT 2.3.0 makes of them.

Tests/Fixtures/references/tflite/crafted/<name>.tflite: one valid model (CONV_2D, ADD, RESHAPE, GELU, with
a builtin code above 127 stored only in the int32 field), the same with its filter stored after the
FlatBuffer (Buffer.offset/size), and copies broken in one way each (an operator input, an opcode index, a
buffer index, a graph output out of range; constant data of the wrong size; an external buffer past the end).
crafted/sparse_*.tflite: x + DENSIFY(a sparse constant) (fp16 ones through DEQUANTIZE), one per kind of
sparse layout (all-dense levels, CSR with int32 / uint16 / uint8 index vectors, a block map, a traversal
order that is not the identity), and copies broken in one way each (an index out of range, segments that
decrease, a segment past the indices, a huge dense shape, a traversal order that is not a permutation, a
block that does not divide its dimension, too few stored values). sparse.json records LiteRT's output on
x = 0 (the dense constant) for the valid ones; the broken ones are not given to LiteRT (its DENSIFY does not
check the metadata: it loads several of them and reads out of bounds).
Tests/Fixtures/references/tflite/crafted.json records, for each, whether LiteRT loads and runs it, and for
the valid one its outputs on a fixed input, so the tests can check the reader agrees with LiteRT.

Tests/Fixtures/references/tflite/bundle.task: a small zip as MediaPipe bundles are (stored entries), with one
deflated entry and a nested bundle, for the ModelBundle tests.

Built with the flatc-generated object API of the TFLite schema that ships with ai-edge-litert.
Run from the repository root:  python3 tools/references/make_tflite_fixtures.py
"""
import argparse
import copy
import io
import json
import os
import zipfile

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as s
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


INDEX_VECTORS = {"int32": (s.SparseIndexVector.Int32Vector, s.Int32VectorT, np.int32),
                 "uint16": (s.SparseIndexVector.Uint16Vector, s.Uint16VectorT, np.uint16),
                 "uint8": (s.SparseIndexVector.Uint8Vector, s.Uint8VectorT, np.uint8)}


def sparsify(dense, traversal, block_map, blocks, formats, index_type):
    """(SparsityParametersT, stored values) of `dense` in TFLite's format: dimension block_map[j] split
    into blocks of blocks[j], expanded dimensions walked in `traversal`, each level DENSE or CSR."""
    rank = dense.ndim
    split_shape, outer_axes, inner_axes = [], [], []
    for d in range(rank):
        if d in block_map:
            b = blocks[block_map.index(d)]
            outer_axes.append(len(split_shape))
            split_shape += [dense.shape[d] // b, b]
        else:
            outer_axes.append(len(split_shape))
            split_shape.append(dense.shape[d])
    inner_axes = [outer_axes[d] + 1 for d in block_map]
    expanded = dense.reshape(split_shape).transpose(outer_axes + inner_axes)
    walked = expanded.transpose(traversal)
    vtype, vclass, npt = INDEX_VECTORS[index_type]
    levels = []
    positions = [()]
    for level, fmt in enumerate(formats):
        size = walked.shape[level]
        dm = s.DimensionMetadataT()
        dm.format = fmt
        if fmt == s.DimensionType.DENSE:
            dm.denseSize = size
            positions = [p + (i,) for p in positions for i in range(size)]
        else:
            segments, indices, nxt = [0], [], []
            for p in positions:
                for i in range(size):
                    if np.any(walked[p + (i,)] != 0):
                        indices.append(i)
                        nxt.append(p + (i,))
                segments.append(len(indices))
            positions = nxt
            for field, values in (("arraySegments", segments), ("arrayIndices", indices)):
                v = vclass()
                v.values = np.array(values, dtype=npt)
                setattr(dm, field + "Type", vtype)
                setattr(dm, field, v)
        levels.append(dm)
    sp = s.SparsityParametersT()
    sp.traversalOrder, sp.blockMap, sp.dimMetadata = traversal, block_map, levels
    return sp, np.array([walked[p] for p in positions], dtype=dense.dtype)


def sparse_model(dense, sparsity, values, half):
    """output = x + DENSIFY(constant), the constant stored sparse (fp16 ones dequantized after DENSIFY)."""
    shape = list(dense.shape)
    graph = s.SubGraphT()
    graph.tensors = [tensor("x", shape, 0), tensor("sparse", shape, 1, s.TensorType.FLOAT16 if half else s.TensorType.FLOAT32),
                     tensor("dense", shape, 0, s.TensorType.FLOAT16 if half else s.TensorType.FLOAT32),
                     tensor("output", shape, 0)]
    graph.tensors[1].sparsity = sparsity
    codes = [opcode(s.BuiltinOperator.DENSIFY), opcode(s.BuiltinOperator.ADD)]
    graph.operators = [operator(0, [1], [2])]
    if half:
        graph.tensors.append(tensor("widened", shape, 0))
        codes.append(opcode(s.BuiltinOperator.DEQUANTIZE))
        graph.operators += [operator(2, [2], [4]), operator(1, [0, 4], [3], s.BuiltinOptions.AddOptions, s.AddOptionsT())]
    else:
        graph.operators.append(operator(1, [0, 2], [3], s.BuiltinOptions.AddOptions, s.AddOptionsT()))
    graph.inputs, graph.outputs = [0], [3]
    stored = s.BufferT()
    stored.data = list(values.astype(np.float16 if half else np.float32).tobytes())
    model = s.ModelT()
    model.version, model.operatorCodes, model.subgraphs, model.buffers = 3, codes, [graph], [s.BufferT(), stored]
    return model


def sparse_models():
    """name -> model: the valid sparse layouts, then broken copies."""
    rng = np.random.default_rng(11)
    def dense_of(shape, keep):
        d = rng.normal(size=shape).astype(np.float32)
        return np.where(rng.uniform(size=shape) < keep, d, 0).astype(np.float32)
    D, C = s.DimensionType.DENSE, s.DimensionType.SPARSE_CSR
    conv = dense_of([8, 1, 1, 32], 0.3)  # as face_detection_full_range_sparse's 1x1 filters
    rows = dense_of([6, 12], 0.4)
    blocked = np.kron(dense_of([4, 3], 0.5), np.ones((1, 4), np.float32)) * rng.normal(size=(4, 12)).astype(np.float32)
    wide = dense_of([3, 300], 0.3)
    layouts = {
        "sparse_dense_levels": (rows, [0, 1], [], [], [D, D], "int32", False),
        "sparse_csr_int32": (rows, [0, 1], [], [], [D, C], "int32", False),
        "sparse_csr_uint16": (wide, [0, 1], [], [], [D, C], "uint16", False),
        "sparse_csr_uint8_fp16": (conv, [0, 1, 2, 3], [], [], [D, D, D, C], "uint8", True),
        "sparse_two_csr_levels": (rows, [0, 1], [], [], [C, C], "uint8", False),
        "sparse_block_map": (blocked, [0, 1, 2], [1], [4], [D, C, D], "int32", False),
        "sparse_traversal_order": (rows, [1, 0], [], [], [D, C], "uint16", False),
    }
    models = {}
    valid = list(layouts)
    for name, (dense, traversal, block_map, blocks, formats, index_type, half) in layouts.items():
        sp, values = sparsify(dense, traversal, block_map, blocks, formats, index_type)
        models[name] = sparse_model(dense, sp, values, half)

    def broken(base, change):
        m = copy.deepcopy(models[base])
        change(m.subgraphs[0].tensors[1].sparsity, m)
        return m
    def set_values(dm, field, values):
        getattr(dm, field).values = np.array(values, dtype=getattr(dm, field).values.dtype)
    models["sparse_index_out_of_range"] = broken(
        "sparse_csr_int32", lambda sp, m: set_values(sp.dimMetadata[1], "arrayIndices",
                                                     list(sp.dimMetadata[1].arrayIndices.values[:-1]) + [12]))
    models["sparse_segments_decrease"] = broken(
        "sparse_csr_int32", lambda sp, m: set_values(sp.dimMetadata[1], "arraySegments",
                                                     [0, 9, 3] + list(sp.dimMetadata[1].arraySegments.values[3:])))
    models["sparse_segment_past_indices"] = broken(
        "sparse_csr_int32", lambda sp, m: set_values(sp.dimMetadata[1], "arraySegments",
                                                     [0, 2**31 - 1] + list(sp.dimMetadata[1].arraySegments.values[2:])))
    def huge(sp, m):
        for t in m.subgraphs[0].tensors:
            t.shape = [6, 2**30]
        sp.dimMetadata[0].denseSize = 6
    models["sparse_huge_dense_shape"] = broken("sparse_csr_int32", huge)
    models["sparse_traversal_not_permutation"] = broken("sparse_csr_int32", lambda sp, m: setattr(sp, "traversalOrder", [0, 0]))
    models["sparse_block_does_not_divide"] = broken(
        "sparse_block_map", lambda sp, m: setattr(sp.dimMetadata[2], "denseSize", 5))
    models["sparse_too_few_values"] = broken(
        "sparse_csr_int32", lambda sp, m: setattr(m.buffers[1], "data", m.buffers[1].data[:-4]))
    return models, valid


def write_sparse():
    records = []
    models, valid = sparse_models()
    for name, model in models.items():
        data = pack(model)
        with open(os.path.join(OUT, "crafted", name + ".tflite"), "wb") as f:
            f.write(data)
        shape = model.subgraphs[0].tensors[0].shape
        record = {"name": name, "valid": name in valid, "shape": [int(v) for v in shape]}
        if name in valid:
            loads, result = litert(data, np.zeros(shape, np.float32))
            assert loads, result
            record["output"] = result.ravel().tolist()
        records.append(record)
        print(name, record["valid"])
    with open(os.path.join(OUT, "sparse.json"), "w") as f:
        json.dump({"generator": "tools/references/make_tflite_fixtures.py (ai-edge-litert 2.3.0)", "models": records}, f, indent=1)
        f.write("\n")


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
        json.dump({"generator": "tools/references/make_tflite_fixtures.py (ai-edge-litert 2.3.0)", "models": records}, f, indent=1)
        f.write("\n")
    write_bundle(pack(model))
    write_sparse()
    for r in records:
        print(r["name"], r["litertLoads"], r.get("litertError"))


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
