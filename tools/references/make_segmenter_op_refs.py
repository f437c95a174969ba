#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/engine/segmenter/: references for the operators the selfie
segmenters need, and for the two models themselves.

ops/*: small hand-built .tflite models (the flatc-generated object API of the TFLite schema shipped with
ai-edge-litert) exercising HARD_SWISH, AVERAGE_POOL_2D (global, SAME with partial windows, VALID with a
fused RELU6), MUL broadcast over [1, 1, 1, C] (both sides), MEAN over axes [1, 2] with keep_dims and
LOGISTIC, with their seeded inputs and LiteRT's outputs (ai-edge-litert==2.3.0, 1 thread).

custom/*: MediaPipe's custom operator Convolution2DTransposeBias, which LiteRT lacks, in small models
that carry the selfie segmenter's own Tasks metadata (copied: normalisation mean 0 / std 255, one
label), so MediaPipe 1.2.2's ImageSegmenter runs them with its own operator on a 48x48 picture of the
same size as the model's input (no resize; output_confidence_masks, the metadata's activation NONE):
SAME with stride 1, SAME with stride 2 and padding (after AVERAGE_POOL_2D and a 1x1 CONV_2D to 11
channels), SAME with an odd cut, VALID with overlapping windows. Each model's input is picture/255.

models/*: selfie_segmenter.tflite (models/, from `make models`) on a 256x256 picture, its reference the
confidence mask of MediaPipe 1.2.2's ImageSegmenter (the model's own output: same size, no resize);
selfie_segmentation_landscape.tflite on rows 56..199 of that picture (144x256), run by the same
ImageSegmenter with the square model's metadata attached (normalisation to [0, 1] as the legacy
selfie_segmentation graph's ImageToTensorCalculator gives it). Pictures are stored as raw RGB bytes,
masks as little-endian uint16 round(65535·p) (quantisation error ≤ 7.7e-6).

refused/*: models the engine must refuse with a clear error (a custom operator it lacks, a
Convolution2DTransposeBias with 8 bytes of options or padding 0); not run by any reference.

manifest.json lists every case. Run from the repository root after `make models`:
  python3 tools/references/make_segmenter_op_refs.py
"""
import argparse
import json
import os

import cv2
import flatbuffers
import mediapipe as mp
import numpy as np
from ai_edge_litert import schema_py_generated as s
from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "models")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "engine", "segmenter")
PHOTO = os.path.join(ROOT, "Tests", "Fixtures", "images", "woman_sitting.jpg")
SQUARE = "selfie_segmenter.tflite"
LANDSCAPE = "selfie_segmentation_landscape.tflite"
LANDSCAPE_ROWS = (56, 200)


def tensor(name, shape, buffer, dtype=s.TensorType.FLOAT32):
    t = s.TensorT()
    t.name, t.shape, t.buffer, t.type = name, shape, buffer, dtype
    return t


def data_buffer(values=None, dtype=np.float32):
    b = s.BufferT()
    if values is not None:
        b.data = list(np.asarray(values, dtype=dtype).tobytes())
    return b


class ModelBuilder:
    """One subgraph built tensor by tensor; buffer 0 is the empty one."""

    def __init__(self):
        self.tensors, self.buffers, self.operators, self.codes = [], [data_buffer()], [], []
        self.inputs, self.outputs = [], []

    def add(self, name, shape, values=None, dtype=s.TensorType.FLOAT32, np_type=np.float32):
        buffer = 0
        if values is not None:
            self.buffers.append(data_buffer(values, np_type))
            buffer = len(self.buffers) - 1
        self.tensors.append(tensor(name, shape, buffer, dtype))
        return len(self.tensors) - 1

    def input(self, name, shape):
        index = self.add(name, shape)
        self.inputs.append(index)
        return index

    def code(self, builtin, custom=None):
        key = (builtin, custom)
        if key not in self.codes:
            self.codes.append(key)
        return self.codes.index(key)

    def op(self, builtin, inputs, out_name, out_shape, options_type=0, options=None, custom=None, custom_options=None):
        out = self.add(out_name, out_shape)
        o = s.OperatorT()
        o.opcodeIndex, o.inputs, o.outputs = self.code(builtin, custom), inputs, [out]
        o.builtinOptionsType, o.builtinOptions = options_type, options
        if custom_options is not None:
            o.customOptions = list(custom_options)
        self.operators.append(o)
        return out

    def model(self, outputs, metadata=None):
        graph = s.SubGraphT()
        graph.name, graph.tensors, graph.operators = "main", self.tensors, self.operators
        graph.inputs, graph.outputs = self.inputs, outputs
        m = s.ModelT()
        m.version, m.description, m.subgraphs = 3, "VisionTasks segmenter operator reference", [graph]
        m.operatorCodes = []
        for builtin, custom in self.codes:
            c = s.OperatorCodeT()
            c.builtinCode = builtin
            c.deprecatedBuiltinCode = min(builtin, s.BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
            c.version = 1
            if custom is not None:
                c.customCode = custom
            m.operatorCodes.append(c)
        m.buffers = self.buffers
        if metadata is not None:
            m.buffers.append(data_buffer(np.frombuffer(metadata, dtype=np.uint8), np.uint8))
            md = s.MetadataT()
            md.name, md.buffer = "TFLITE_METADATA", len(m.buffers) - 1
            m.metadata = [md]
        builder = flatbuffers.Builder(1024)
        builder.Finish(m.Pack(builder), file_identifier=b"TFL3")
        return bytes(builder.Output())


def pool(kind, x_shape, filt, stride, padding, activation=s.ActivationFunctionType.NONE):
    o = s.Pool2DOptionsT()
    o.padding, o.strideW, o.strideH = padding, stride, stride
    o.filterWidth, o.filterHeight, o.fusedActivationFunction = filt, filt, activation
    return o


def out_size(size, filt, stride, padding):
    return (size + stride - 1) // stride if padding == s.Padding.SAME else (size - filt) // stride + 1


def op_models(rng):
    """name -> (model bytes, [input arrays])."""
    cases = {}

    def single(name, builtin, shape, out_shape, options_type=0, options=None, scale=4.0):
        b = ModelBuilder()
        x = b.input("x", shape)
        y = b.op(builtin, [x], "y", out_shape, options_type, options)
        cases[name] = (b.model([y]), [rng.uniform(-scale, scale, size=shape).astype(np.float32)])

    single("hard_swish", s.BuiltinOperator.HARD_SWISH, [1, 5, 7, 19], [1, 5, 7, 19], scale=5.0)
    single("logistic", s.BuiltinOperator.LOGISTIC, [1, 6, 5, 13], [1, 6, 5, 13], scale=12.0)
    for name, shape, filt, stride, padding, act in [
        ("avg_pool_global", [1, 16, 16, 21], 16, 16, s.Padding.SAME, s.ActivationFunctionType.NONE),
        ("avg_pool_same_3x3_s2", [2, 7, 9, 11], 3, 2, s.Padding.SAME, s.ActivationFunctionType.NONE),
        ("avg_pool_valid_2x2_s2_relu6", [1, 8, 6, 5], 2, 2, s.Padding.VALID, s.ActivationFunctionType.RELU6),
    ]:
        out = [shape[0], out_size(shape[1], filt, stride, padding), out_size(shape[2], filt, stride, padding), shape[3]]
        single(name, s.BuiltinOperator.AVERAGE_POOL_2D, shape, out, s.BuiltinOptions.Pool2DOptions,
               pool(None, shape, filt, stride, padding, act), scale=8.0)
    for name, a_shape, b_shape in [("mul_broadcast_channels", [1, 9, 7, 24], [1, 1, 1, 24]),
                                   ("mul_broadcast_channels_left", [1, 1, 1, 13], [1, 4, 6, 13])]:
        b = ModelBuilder()
        x, w = b.input("a", a_shape), b.input("b", b_shape)
        options = s.MulOptionsT()
        options.fusedActivationFunction = s.ActivationFunctionType.NONE
        out = [max(p, q) for p, q in zip(a_shape, b_shape)]
        y = b.op(s.BuiltinOperator.MUL, [x, w], "y", out, s.BuiltinOptions.MulOptions, options)
        cases[name] = (b.model([y]), [rng.uniform(-3, 3, size=a_shape).astype(np.float32),
                                      rng.uniform(-3, 3, size=b_shape).astype(np.float32)])
    b = ModelBuilder()
    x = b.input("x", [1, 9, 16, 40])
    axes = b.add("axes", [2], [1, 2], s.TensorType.INT32, np.int32)
    options = s.ReducerOptionsT()
    options.keepDims = True
    y = b.op(s.BuiltinOperator.MEAN, [x, axes], "y", [1, 1, 1, 40], s.BuiltinOptions.ReducerOptions, options)
    cases["mean_spatial_keep_dims"] = (b.model([y]), [rng.uniform(-2, 6, size=[1, 9, 16, 40]).astype(np.float32)])
    return cases


def run_litert(model, inputs):
    it = Interpreter(model_content=model, num_threads=1)
    it.allocate_tensors()
    for detail, value in zip(it.get_input_details(), inputs):
        it.set_tensor(detail["index"], value)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


def transpose_conv_options(padding, stride_w, stride_h):
    return np.array([padding, stride_w, stride_h], dtype="<i4").tobytes()


def custom_models(rng, metadata, size):
    """name -> model bytes: picture [1, size, size, 3] in, one channel out, through Convolution2DTransposeBias."""
    same, valid = 1, 2
    cases = {}

    def build(name, prepare, filt, stride, padding):
        b = ModelBuilder()
        x = b.input("image", [1, size, size, 3])
        x, channels = prepare(b, x)
        w = b.add("filter", [1, filt, filt, channels], rng.uniform(-1, 1, size=[1, filt, filt, channels]))
        bias = b.add("bias", [1], [0.25])
        y = b.op(s.BuiltinOperator.CUSTOM, [x, w, bias], "mask", [1, size, size, 1],
                 custom="Convolution2DTransposeBias",
                 custom_options=transpose_conv_options(padding, stride, stride))
        cases[name] = b.model([y], metadata)

    def pooled(filt, stride, padding, widen=0):
        def prepare(b, x):
            n = out_size(size, filt, stride, padding)
            x = b.op(s.BuiltinOperator.AVERAGE_POOL_2D, [x], "pooled", [1, n, n, 3],
                     s.BuiltinOptions.Pool2DOptions, pool(None, None, filt, stride, padding))
            if not widen:
                return x, 3
            conv = s.Conv2DOptionsT()
            conv.padding, conv.strideW, conv.strideH = s.Padding.VALID, 1, 1
            conv.dilationWFactor = conv.dilationHFactor = 1
            w = b.add("widen", [widen, 1, 1, 3], rng.uniform(-1, 1, size=[widen, 1, 1, 3]))
            bias = b.add("widen_bias", [widen], rng.uniform(-0.2, 0.2, size=[widen]))
            return b.op(s.BuiltinOperator.CONV_2D, [x, w, bias], "widened", [1, n, n, widen],
                        s.BuiltinOptions.Conv2DOptions, conv), widen
        return prepare

    build("same_k3_s1", lambda b, x: (x, 3), 3, 1, same)
    build("same_k4_s2_pad1_11ch", pooled(2, 2, s.Padding.VALID, widen=11), 4, 2, same)
    build("same_k5_s2_odd_cut", pooled(2, 2, s.Padding.VALID), 5, 2, same)
    build("valid_k8_s4_overlap", pooled(8, 4, s.Padding.VALID), 8, 4, valid)
    return cases


def refused_models():
    """name -> (model bytes, the text the engine's error must contain)."""
    cases = {}
    for name, custom, options, text in [
        ("unknown_custom_op", "MaxPoolingWithArgmax2D", b"", "custom operator 'MaxPoolingWithArgmax2D'"),
        ("short_custom_options", "Convolution2DTransposeBias", transpose_conv_options(1, 2, 2)[:8], "8 bytes"),
        ("unknown_padding", "Convolution2DTransposeBias", transpose_conv_options(0, 2, 2), "padding 0"),
    ]:
        b = ModelBuilder()
        x = b.input("x", [1, 4, 4, 2])
        w = b.add("filter", [1, 2, 2, 2], np.ones([1, 2, 2, 2]))
        bias = b.add("bias", [1], [0.0])
        y = b.op(s.BuiltinOperator.CUSTOM, [x, w, bias], "y", [1, 8, 8, 1], custom=custom, custom_options=options)
        cases[name] = (b.model([y]), text)
    return cases


def mediapipe_mask(model, rgb):
    options = vision.ImageSegmenterOptions(
        base_options=BaseOptions(model_asset_buffer=model), output_confidence_masks=True,
        output_category_mask=False)
    with vision.ImageSegmenter.create_from_options(options) as segmenter:
        result = segmenter.segment(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
        return np.array(result.confidence_masks[0].numpy_view(), dtype=np.float32).reshape(rgb.shape[:2])


def metadata_of(model):
    m = s.ModelT.InitFromPackedBuf(model, 0)
    entry = next(md for md in m.metadata if md.name == b"TFLITE_METADATA")
    return bytes(m.buffers[entry.buffer].data)


def write(path, data):
    full = os.path.join(OUT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)
    return path


def main():
    rng = np.random.default_rng(44)
    manifest = {"ops": [], "custom": [], "models": [], "refused": []}
    for name, (model, text) in refused_models().items():
        manifest["refused"].append({"name": name, "model": write("refused/%s.tflite" % name, model), "error": text})
    for name, (model, inputs) in op_models(rng).items():
        output = run_litert(model, inputs).astype("<f4")
        manifest["ops"].append({
            "name": name, "model": write("ops/%s.tflite" % name, model),
            "inputs": [{"file": write("ops/%s.in%d.f32" % (name, i), x.astype("<f4").tobytes()), "shape": list(x.shape)}
                       for i, x in enumerate(inputs)],
            "output": {"file": write("ops/%s.out.f32" % name, output.tobytes()), "shape": list(output.shape)},
        })
    square = open(os.path.join(MODELS, SQUARE), "rb").read()
    metadata = metadata_of(square)
    photo = cv2.cvtColor(cv2.imread(PHOTO), cv2.COLOR_BGR2RGB)
    small = cv2.resize(photo, (48, 48), interpolation=cv2.INTER_AREA)
    picture = write("custom/picture_48x48.rgb", small.tobytes())
    for name, model in custom_models(rng, metadata, 48).items():
        mask = mediapipe_mask(model, small)
        manifest["custom"].append({
            "name": name, "model": write("custom/%s.tflite" % name, model), "picture": picture,
            "size": [48, 48], "mask": write("custom/%s.mask.f32" % name, mask.astype("<f4").tobytes())})
    big = cv2.resize(photo, (256, 256), interpolation=cv2.INTER_AREA)
    write("models/picture_256x256.rgb", big.tobytes())
    top, bottom = LANDSCAPE_ROWS
    landscape = open(os.path.join(MODELS, LANDSCAPE), "rb").read()
    ls = s.ModelT.InitFromPackedBuf(landscape, 0)
    ls_builder = flatbuffers.Builder(1024)
    extra = s.BufferT()
    extra.data = list(metadata)
    ls.buffers.append(extra)
    md = s.MetadataT()
    md.name, md.buffer = "TFLITE_METADATA", len(ls.buffers) - 1
    ls.metadata = (ls.metadata or []) + [md]
    ls_builder.Finish(ls.Pack(ls_builder), file_identifier=b"TFL3")
    for name, model, rows in [("selfie_segmenter", square, (0, 256)),
                              ("selfie_segmentation_landscape", bytes(ls_builder.Output()), (top, bottom))]:
        crop = big[rows[0]:rows[1]]
        mask = mediapipe_mask(model, crop)
        quantised = np.round(np.clip(mask, 0, 1) * 65535).astype("<u2")
        manifest["models"].append({
            "name": name, "path": [name + ".tflite"], "picture": "models/picture_256x256.rgb", "rows": list(rows),
            "mask": write("models/%s.mask.u16" % name, quantised.tobytes()), "size": list(mask.shape),
            "mask_range": [float(mask.min()), float(mask.max())]})
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("make_segmenter_op_refs: wrote %s" % OUT)


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
