#!/usr/bin/env python3
"""Decodes the classifiers our own code wrote, with Google's decoders, for TFLiteTests to compare with ours.

Two committed models are regression fixtures made by VisionTasks itself: the ClassifierModelWriter's
Tests/Fixtures/references/tflite/classifier_writer/classifier.tflite and the trainer's
Tests/Fixtures/references/gestures/custom_gesture_classifier.tflite. This tool writes what outside tools read in
them to Tests/Fixtures/references/tflite/classifier_writer/decoded_by_litert.json:
  - the model FlatBuffer as LiteRT's generated schema decodes it (ai_edge_litert.schema_py_generated, from
    ai-edge-litert 2.3.0): version, description, operator codes, every tensor (with its buffer's byte count and
    CRC-32), every operator with its builtin options' union tag and fields, the metadata entries;
  - the operators and the input and output LiteRT's interpreter reports once it has loaded the model;
  - the TFLITE_METADATA FlatBuffer as MediaPipe 1.2.2's generated metadata schema decodes it
    (mediapipe.tasks.metadata.metadata_schema_py_generated), unions and enums by their schema names.
TFLiteTests' ClassifierModelWriterTests.googleDecodesTheRegressionFixturesAsWeDo checks that TFLiteModel reads the same.

Usage (repository root): python3 tools/references/decode_written_classifiers.py [--check]
  --check  compare with the committed file instead of writing it (exit status 1 when they differ).
"""
import argparse
import json
import os
import sys
import zlib

import ai_edge_litert
import mediapipe
from ai_edge_litert import schema_py_generated as tfl
from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks.metadata import metadata_schema_py_generated as md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCES = os.path.join(ROOT, "Tests", "Fixtures", "references")
MODELS = ["tflite/classifier_writer/classifier.tflite", "gestures/custom_gesture_classifier.tflite"]
OUT = os.path.join(REFERENCES, "tflite", "classifier_writer", "decoded_by_litert.json")


def names_of(enum_class):
    """Value → schema name of a generated enum or union class."""
    return {value: name for name, value in vars(enum_class).items() if not name.startswith("_")}


def text(value):
    return value.decode() if isinstance(value, bytes) else value


def numbers(value):
    return [] if value is None else [v.item() if hasattr(v, "item") else v for v in value]


def options_fields(options):
    """The fields of a builtin options table (object API), by their generated names."""
    if options is None:
        return None
    return {name: (value.item() if hasattr(value, "item") else value) for name, value in sorted(vars(options).items())}


def decode_model(data):
    model = tfl.ModelT.InitFromObj(tfl.Model.GetRootAsModel(data, 0))
    assert tfl.Model.ModelBufferHasIdentifier(data, 0), "no TFL3 identifier"
    operator_names = names_of(tfl.BuiltinOperator)
    option_names = names_of(tfl.BuiltinOptions)
    type_names = names_of(tfl.TensorType)
    (subgraph,) = model.subgraphs
    buffers = [bytes(numbers(b.data)) for b in model.buffers]
    return {
        "version": model.version,
        "description": text(model.description),
        "operatorCodes": [
            {"builtinCode": code.builtinCode, "name": operator_names[code.builtinCode],
             "deprecatedBuiltinCode": code.deprecatedBuiltinCode, "version": code.version}
            for code in model.operatorCodes
        ],
        "subgraph": {
            "name": text(subgraph.name),
            "inputs": numbers(subgraph.inputs),
            "outputs": numbers(subgraph.outputs),
            "tensors": [
                {"name": text(t.name), "shape": numbers(t.shape), "type": type_names[t.type], "buffer": t.buffer,
                 "bufferBytes": len(buffers[t.buffer]), "bufferCRC32": zlib.crc32(buffers[t.buffer])}
                for t in subgraph.tensors
            ],
            "operators": [
                {"opcodeIndex": op.opcodeIndex, "inputs": numbers(op.inputs), "outputs": numbers(op.outputs),
                 "builtinOptionsType": op.builtinOptionsType,
                 "builtinOptionsName": option_names[op.builtinOptionsType],
                 "builtinOptions": options_fields(op.builtinOptions)}
                for op in subgraph.operators
            ],
        },
        "metadata": [{"name": text(m.name), "buffer": m.buffer} for m in model.metadata],
    }, {text(m.name): buffers[m.buffer] for m in model.metadata}


def decode_metadata(buffer):
    """TFLITE_METADATA with MediaPipe's generated schema: the fields TFLiteModel reads, unions and enums named."""
    assert md.ModelMetadata.ModelMetadataBufferHasIdentifier(buffer, 0), "no M001 identifier"
    root = md.ModelMetadataT.InitFromObj(md.ModelMetadata.GetRootAsModelMetadata(buffer, 0))
    content_names, unit_names = names_of(md.ContentProperties), names_of(md.ProcessUnitOptions)
    file_types = names_of(md.AssociatedFileType)

    def files(items):
        return [{"name": text(f.name), "description": text(f.description), "type": file_types[f.type],
                 "locale": text(f.locale)} for f in items or []]

    def tensor(t):
        units = []
        for unit in t.processUnits or []:
            entry = {"optionsType": unit_names[unit.optionsType]}
            if unit.optionsType == md.ProcessUnitOptions.ScoreThresholdingOptions:
                entry["globalScoreThreshold"] = unit.options.globalScoreThreshold
            units.append(entry)
        return {
            "name": text(t.name), "description": text(t.description),
            "contentProperties": content_names[t.content.contentPropertiesType] if t.content else None,
            "processUnits": units,
            "statsMax": numbers(t.stats.max) if t.stats else None,
            "statsMin": numbers(t.stats.min) if t.stats else None,
            "associatedFiles": files(t.associatedFiles),
        }

    return {
        "name": text(root.name), "description": text(root.description), "version": text(root.version),
        "minParserVersion": text(root.minParserVersion), "associatedFiles": files(root.associatedFiles),
        "subgraphs": [{"inputs": [tensor(t) for t in s.inputTensorMetadata or []],
                       "outputs": [tensor(t) for t in s.outputTensorMetadata or []]} for s in root.subgraphMetadata],
    }


def run_in_litert(data):
    interpreter = Interpreter(model_content=data, num_threads=1)
    interpreter.allocate_tensors()
    (source,), (sink,) = interpreter.get_input_details(), interpreter.get_output_details()
    return {
        "input": {"name": source["name"], "shape": source["shape"].tolist()},
        "output": {"name": sink["name"], "shape": sink["shape"].tolist()},
        "ops": [op["op_name"] for op in interpreter._get_ops_details() if op["op_name"] != "DELEGATE"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    result = {
        "about": "What Google's decoders read in the classifiers our code wrote (regression fixtures): "
                 "made by tools/references/decode_written_classifiers.py with ai-edge-litert "
                 f"{ai_edge_litert.__version__} and mediapipe {mediapipe.__version__}.",
        "models": {},
    }
    for path in MODELS:
        with open(os.path.join(REFERENCES, path), "rb") as f:
            data = f.read()
        decoded, entries = decode_model(data)
        decoded["minRuntimeVersion"] = entries["min_runtime_version"].rstrip(b"\0").decode()
        decoded["litert"] = run_in_litert(data)
        decoded["tfliteMetadata"] = decode_metadata(entries["TFLITE_METADATA"])
        decoded["bytes"] = len(data)
        decoded["crc32"] = zlib.crc32(data)
        result["models"][path] = decoded
    rendered = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if args.check:
        with open(OUT) as f:
            same = f.read() == rendered
        print(f"{os.path.relpath(OUT, ROOT)} {'matches' if same else 'DIFFERS FROM'} what LiteRT and MediaPipe decode now")
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(rendered)
    print(f"wrote {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
