#!/usr/bin/env python3
"""Writes Tests/Fixtures/references/tflite/model_facts.json: facts about every model the TFLite reader
must read, as Google's software reports them.

- inputs/outputs (name, shape, dtype), operator counts and tensor count: LiteRT 2.3.0's Interpreter
  (get_input_details, get_output_details, _get_ops_details, get_tensor_details);
- metadata (name, per-input normalization, per-output label files and score thresholds): the flatc-generated Python reader of
  metadata_schema.fbs shipped with mediapipe 1.2.2;
- labels: the associated-file zip appended to the model, read with Python's zipfile.

Run from the repository root after `make models`:  python3 tools/references/tflite_model_facts.py
"""
import argparse
import collections
import io
import json
import os
import zipfile

from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks.metadata import metadata_schema_py_generated as meta
from ai_edge_litert import schema_py_generated as schema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/references/tflite/model_facts.json")


def models():
    """(file, entry path or None, bytes) for every .tflite model under models/."""
    for bundle in ["face_landmarker.task", "hand_landmarker.task", "operations.task"]:
        outer = zipfile.ZipFile(os.path.join(ROOT, "models", bundle))
        for info in outer.infolist():
            data = outer.read(info)
            if info.filename.endswith(".task"):
                inner = zipfile.ZipFile(io.BytesIO(data))
                for inner_info in inner.infolist():
                    yield bundle, info.filename + "/" + inner_info.filename, inner.read(inner_info)
            elif info.filename.endswith(".tflite"):
                yield bundle, info.filename, data
    path = os.path.join(ROOT, "models", "blaze_face_short_range.tflite")
    yield "blaze_face_short_range.tflite", None, open(path, "rb").read()


def tensor(detail):
    return {"name": detail["name"], "shape": [int(x) for x in detail["shape"]],
            "dtype": detail["dtype"].__name__}


def text(value):
    return value.decode("utf-8") if value is not None else None


def metadata_facts(data):
    model = schema.Model.GetRootAs(data, 0)
    for i in range(model.MetadataLength()):
        entry = model.Metadata(i)
        if entry.Name() != b"TFLITE_METADATA":
            continue
        buffer = model.Buffers(entry.Buffer()).DataAsNumpy().tobytes()
        root = meta.ModelMetadata.GetRootAsModelMetadata(buffer, 0)
        subgraph = root.SubgraphMetadata(0)
        inputs = []
        for t in range(subgraph.InputTensorMetadataLength()):
            tm = subgraph.InputTensorMetadata(t)
            norm = None
            for u in range(tm.ProcessUnitsLength()):
                unit = tm.ProcessUnits(u)
                if unit.OptionsType() == meta.ProcessUnitOptions.NormalizationOptions:
                    options = meta.NormalizationOptions()
                    options.Init(unit.Options().Bytes, unit.Options().Pos)
                    norm = {"mean": options.MeanAsNumpy().tolist(), "std": options.StdAsNumpy().tolist()}
            inputs.append({"name": text(tm.Name()), "normalization": norm})
        outputs = []
        for t in range(subgraph.OutputTensorMetadataLength()):
            tm = subgraph.OutputTensorMetadata(t)
            files = [{"name": text(tm.AssociatedFiles(f).Name()), "type": tm.AssociatedFiles(f).Type()}
                     for f in range(tm.AssociatedFilesLength())]
            threshold = None
            for u in range(tm.ProcessUnitsLength()):
                unit = tm.ProcessUnits(u)
                if unit.OptionsType() == meta.ProcessUnitOptions.ScoreThresholdingOptions:
                    options = meta.ScoreThresholdingOptions()
                    options.Init(unit.Options().Bytes, unit.Options().Pos)
                    threshold = options.GlobalScoreThreshold()
            outputs.append({"name": text(tm.Name()), "associatedFiles": files, "scoreThreshold": threshold})
        return {"name": text(root.Name()), "inputs": inputs, "outputs": outputs}
    return None


def labels(data, metadata):
    """Output index -> labels, for outputs whose metadata names a TENSOR_AXIS_LABELS file."""
    if metadata is None:
        return {}
    try:
        packed = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return {}
    result = {}
    for index, output in enumerate(metadata["outputs"]):
        for f in output["associatedFiles"]:
            if f["type"] == meta.AssociatedFileType.TENSOR_AXIS_LABELS:
                lines = packed.read(f["name"]).decode("utf-8").splitlines()
                while lines and not lines[-1].strip():
                    lines.pop()
                result[str(index)] = lines
                break
    return result


def main():
    facts = []
    for bundle, entry, data in models():
        interpreter = Interpreter(model_content=data)
        ops = collections.Counter(op["op_name"] for op in interpreter._get_ops_details())
        metadata = metadata_facts(data)
        facts.append({
            "file": bundle,
            "entry": entry,
            "bytes": len(data),
            "inputs": [tensor(d) for d in interpreter.get_input_details()],
            "outputs": [tensor(d) for d in interpreter.get_output_details()],
            "operators": dict(sorted(ops.items())),
            "tensors": len(interpreter.get_tensor_details()),
            "metadata": metadata,
            "labels": labels(data, metadata),
        })
    with open(OUT, "w") as out:
        json.dump({"generator": "tools/references/tflite_model_facts.py (ai-edge-litert 2.3.0, mediapipe 1.2.2)",
                   "models": facts}, out, indent=1)
        out.write("\n")
    print(f"wrote {OUT}: {len(facts)} models")


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
