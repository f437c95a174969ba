#!/usr/bin/env python3
"""Checks classifier models written by the TFLite module's ClassifierModelWriter against Google's runtimes.

  litert MODEL.tflite [--cases N]
      Loads the model in LiteRT (ai-edge-litert 2.3.0) and runs it and our engine (`vision-tasks model run`,
      from .build/debug unless --vision-tasks says otherwise) on N seeded random inputs; prints the largest
      difference and fails above 1e-6. Decodes its TFLITE_METADATA with MediaPipe's own generated metadata
      schema, in the JSON form of MediaPipe's metadata displayer, and, for a model written with Model Maker's
      gesture strings, checks it equals Model Maker's custom_gesture_classifier_meta.json.

  gesture TASK IMAGE
      Runs MediaPipe 1.2.2's GestureRecognizer from the gesture_recognizer.task at TASK (built elsewhere, e.g.
      with a written custom_gesture_classifier.tflite) on IMAGE and prints the custom classifier's labels and
      the gestures MediaPipe returns (a custom label, or the canned classifier's when the custom one says None).

  trained [--vision-tasks BIN] [--photos N]
      What `make test` runs: trains custom gestures with `vision-tasks train-gestures` (our writer makes the
      classifier) on the first N photos (default 4) of each label of Tests/Fixtures/gestures, then runs `litert`
      on the custom_gesture_classifier.tflite inside the written .task (its metadata decoded with MediaPipe's
      schema must equal Model Maker's), `gesture` on the .task with Tests/Fixtures/images/hand_thumb_up.jpg
      (MediaPipe loads our bundle and finds the hand's gesture), and `litert` on the committed writer reference
      (classifier_writer/classifier.tflite, which the TFLite tests hold the writer to byte for byte).

  reference
      Remakes Tests/Fixtures/references/tflite/classifier_writer/: classifier.json holds a seeded head (as Model
      Maker's with one hidden layer: 16 → 8 → 3), its labels and description, four inputs and LiteRT's outputs on
      them; classifier.tflite is the model our writer makes of it, written by the TFLite test
      theRegressionFixtureIsReproduced (run with VISIONTASKS_WRITE_CLASSIFIER_REFERENCE; build the tests first).

Run from the repository root.
"""
import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "Tests", "Fixtures", "references", "tflite", "classifier_writer")
TOLERANCE = 1e-6

# What Model Maker's gesture metadata writer produces (mediapipe/model_maker/python/vision/gesture_recognizer/
# testdata/metadata/custom_gesture_classifier_meta.json, written with score threshold 0.5).
MODEL_MAKER_GESTURE_METADATA = {
    "name": "HandGestureRecognition",
    "description": "Recognize the hand gesture in the image.",
    "subgraph_metadata": [{
        "input_tensor_metadata": [{
            "name": "embedding",
            "description": "Embedding feature vector from gesture embedder.",
            "content": {"content_properties_type": "FeatureProperties", "content_properties": {}},
            "stats": {},
        }],
        "output_tensor_metadata": [{
            "name": "scores",
            "description": "Hand gesture category scores.",
            "content": {"content_properties_type": "FeatureProperties", "content_properties": {}},
            "process_units": [{"options_type": "ScoreThresholdingOptions", "options": {"global_score_threshold": 0.5}}],
            "stats": {"max": [1.0], "min": [0.0]},
            "associated_files": [{
                "name": "labels.txt",
                "description": "Labels for categories that the model can recognize.",
                "type": "TENSOR_AXIS_LABELS",
            }],
        }],
    }],
    "min_parser_version": "1.0.0",
}


def metadata_json(model):
    """The model's TFLITE_METADATA as MediaPipe's metadata displayer prints it (snake_case keys, unions and
    enums by name, absent fields left out), decoded with MediaPipe's generated metadata schema."""
    from ai_edge_litert import schema_py_generated as tfl
    from mediapipe.tasks.metadata import metadata_schema_py_generated as md

    flat = tfl.ModelT.InitFromObj(tfl.Model.GetRootAsModel(model, 0))
    entry = next(m for m in flat.metadata if m.name == b"TFLITE_METADATA")
    buffer = bytes(flat.buffers[entry.buffer].data)
    assert md.ModelMetadata.ModelMetadataBufferHasIdentifier(buffer, 0), "metadata lacks the M001 identifier"
    names = {
        "content_properties": {v: k for k, v in vars(md.ContentProperties).items() if not k.startswith("_")},
        "options": {v: k for k, v in vars(md.ProcessUnitOptions).items() if not k.startswith("_")},
    }
    file_types = {v: k for k, v in vars(md.AssociatedFileType).items() if not k.startswith("_")}

    def snake(name):
        return "".join("_" + c.lower() if c.isupper() else c for c in name)

    def plain(value, key=None):
        if isinstance(value, bytes):
            return value.decode()
        if isinstance(value, np.ndarray):
            return [float(v) for v in value]
        if isinstance(value, list):
            return [plain(v, key) for v in value]
        if hasattr(value, "__dict__"):
            out = {}
            for name, field in vars(value).items():
                name = snake(name)
                if field is None:
                    continue
                if name.endswith("_type") and name[:-5] in names:
                    out[name] = names[name[:-5]][field]
                elif name == "type" and key == "associated_files":
                    out[name] = file_types[field]
                else:
                    out[name] = plain(field, name)
            return out
        return float(value) if isinstance(value, float) else value

    return plain(md.ModelMetadataT.InitFromObj(md.ModelMetadata.GetRootAsModelMetadata(buffer, 0)))


def labels_of(model):
    """labels.txt from the zip appended to the model, as tflite-support packs it."""
    with zipfile.ZipFile(io.BytesIO(model)) as packed:
        return packed.read("labels.txt").decode().split("\n")


def litert(model):
    """The model loaded in LiteRT (1 thread, its default XNNPACK delegate)."""
    interpreter = Interpreter(model_content=model, num_threads=1)
    interpreter.allocate_tensors()
    return interpreter


def litert_outputs(interpreter, inputs):
    """LiteRT's output on each input (the model has one float32 input and one output)."""
    (source,), (sink,) = interpreter.get_input_details(), interpreter.get_output_details()
    outputs = []
    for values in inputs:
        interpreter.set_tensor(source["index"], np.asarray(values, np.float32).reshape(source["shape"]))
        interpreter.invoke()
        outputs.append(interpreter.get_tensor(sink["index"]).reshape(-1))
    return outputs


def our_outputs(tool, path, input_name, inputs):
    """Our engine's outputs, through `vision-tasks model run` (raw float32 files in and out)."""
    outputs = []
    with tempfile.TemporaryDirectory() as scratch:
        for index, values in enumerate(inputs):
            source = os.path.join(scratch, f"input{index}.f32")
            np.asarray(values, "<f4").tofile(source)
            out_dir = os.path.join(scratch, f"out{index}")
            subprocess.run([tool, "model", "run", path, "--input", f"{input_name}={source}", "--output-dir", out_dir],
                           check=True, stdout=subprocess.DEVNULL)
            (name,) = os.listdir(out_dir)
            outputs.append(np.fromfile(os.path.join(out_dir, name), "<f4"))
    return outputs


def check_litert(args):
    with open(args.model, "rb") as f:
        model = f.read()
    metadata = metadata_json(model)
    labels = labels_of(model)
    rng = np.random.default_rng(args.seed)
    interpreter = litert(model)
    (source,) = interpreter.get_input_details()
    inputs = [rng.uniform(-2, 2, int(np.prod(source["shape"]))).astype(np.float32) for _ in range(args.cases)]
    theirs = litert_outputs(interpreter, inputs)
    ours = our_outputs(args.vision_tasks, args.model, source["name"], inputs)
    ops = [op["op_name"] for op in interpreter._get_ops_details() if op["op_name"] != "DELEGATE"]
    print(f"{args.model}: {len(model)} bytes; LiteRT loads it: input {source['name']} {source['shape'].tolist()}, "
          f"output {interpreter.get_output_details()[0]['shape'].tolist()}, ops {' '.join(ops)}")
    print(f"labels.txt: {labels}")
    print("metadata:", json.dumps(metadata, indent=1))
    failed = False
    if metadata.get("name") == MODEL_MAKER_GESTURE_METADATA["name"]:
        expected = json.loads(json.dumps(MODEL_MAKER_GESTURE_METADATA))
        output = expected["subgraph_metadata"][0]["output_tensor_metadata"][0]
        written = metadata["subgraph_metadata"][0]["output_tensor_metadata"][0]
        threshold = written.get("process_units", [{}])[0].get("options", {}).get("global_score_threshold")
        if threshold is None:
            del output["process_units"]
        else:
            output["process_units"][0]["options"]["global_score_threshold"] = threshold
        same = metadata == expected
        failed |= not same
        print(f"metadata {'equals' if same else 'DIFFERS FROM'} Model Maker's custom_gesture_classifier_meta.json "
              f"(with score threshold {threshold})")
    error = max(float(np.max(np.abs(a - b))) for a, b in zip(ours, theirs))
    failed |= not error <= TOLERANCE
    for values, mine in list(zip(theirs, ours))[:3]:
        print("LiteRT", np.array2string(values, precision=6), "\nours  ", np.array2string(mine, precision=6))
    print(f"{args.cases} inputs: largest |ours - LiteRT| = {error:.3g} (tolerance {TOLERANCE})")
    return 1 if failed else 0


def check_gesture(args):
    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision

    with zipfile.ZipFile(args.task) as outer:
        with zipfile.ZipFile(io.BytesIO(outer.read("hand_gesture_recognizer.task"))) as inner:
            print(f"{args.task}: hand_gesture_recognizer.task holds {inner.namelist()}")
            if "custom_gesture_classifier.tflite" in inner.namelist():
                print("custom classifier labels:", labels_of(inner.read("custom_gesture_classifier.tflite")))
    options = vision.GestureRecognizerOptions(base_options=BaseOptions(model_asset_path=args.task), num_hands=2)
    with vision.GestureRecognizer.create_from_options(options) as recognizer:
        result = recognizer.recognize(mp.Image.create_from_file(args.image))
    print(f"MediaPipe {mp.__version__} GestureRecognizer on {args.image}: {len(result.gestures)} hand(s)")
    for hand, (gestures, handedness) in enumerate(zip(result.gestures, result.handedness)):
        # A classifier without labels (the canned one in gesture_recognizer.task) gives category_name None.
        named = ", ".join(f"{g.category_name!r} {g.score:.6f}" for g in gestures)
        print(f"  hand {hand} ({handedness[0].category_name} {handedness[0].score:.3f}): {named}")
    return 0 if result.gestures else 1


def check_trained(args):
    gestures = os.path.join(ROOT, "Tests", "Fixtures", "gestures")
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "data")
        for label in sorted(os.listdir(gestures)):
            folder = os.path.join(gestures, label)
            if not os.path.isdir(folder):
                continue
            os.makedirs(os.path.join(data, label))
            for photo in sorted(os.listdir(folder))[:args.photos]:
                os.symlink(os.path.join(folder, photo), os.path.join(data, label, photo))
        task = os.path.join(scratch, "trained.task")
        subprocess.run([args.vision_tasks, "train-gestures", data, "--model", os.path.join(ROOT, "models",
                        "gesture_recognizer.task"), "--output", task, "--epochs", "2", "--validation-split", "0",
                        "--no-progress"], check=True, stdout=subprocess.DEVNULL)
        with zipfile.ZipFile(task) as outer:
            with zipfile.ZipFile(io.BytesIO(outer.read("hand_gesture_recognizer.task"))) as inner:
                classifier = inner.read("custom_gesture_classifier.tflite")
        written = os.path.join(scratch, "custom_gesture_classifier.tflite")
        with open(written, "wb") as f:
            f.write(classifier)
        failures = []
        common = {"cases": 8, "seed": 0, "vision_tasks": args.vision_tasks}
        if check_litert(argparse.Namespace(model=written, **common)):
            failures.append("the trained classifier (LiteRT, MediaPipe's metadata schema)")
        image = os.path.join(ROOT, "Tests", "Fixtures", "images", "hand_thumb_up.jpg")
        if check_gesture(argparse.Namespace(task=task, image=image)):
            failures.append("MediaPipe's GestureRecognizer on the trained bundle")
    if check_litert(argparse.Namespace(model=os.path.join(REFERENCE, "classifier.tflite"), **common)):
        failures.append("the committed writer reference")
    for failure in failures:
        print(f"check_written_classifier: FAIL: {failure}")
    print(f"check_written_classifier: {'FAIL' if failures else 'PASS'} (trained, gesture, reference)")
    return 1 if failures else 0


def remake_reference(args):
    rng = np.random.default_rng(35)

    def floats(count, low, high):
        return [float(v) for v in rng.uniform(low, high, count).astype(np.float32)]

    def batch_norm(width):
        return [{"kind": "scaleShift", "scale": floats(width, 0.5, 1.5), "shift": floats(width, -0.5, 0.5)}, {"kind": "relu"}]

    def dense(inputs, outputs):
        bound = 3 / np.sqrt(inputs)
        return {"kind": "dense", "weights": floats(inputs * outputs, -bound, bound), "bias": floats(outputs, -1, 1),
                "outputCount": outputs}

    spec = {
        "about": "A head written by ClassifierModelWriter (classifier.tflite), with inputs and LiteRT 2.3.0's outputs "
                 "on them: made by tools/checks/check_written_classifier.py reference.",
        "inputCount": 16,
        "layers": batch_norm(16) + [dense(16, 8)] + batch_norm(8) + [dense(8, 3), {"kind": "softmax"}],
        "labels": ["None", "open", "closed"],
        "scoreThreshold": 0.5,
        "description": {"name": "ReferenceHead", "description": "A seeded head for the writer's reference test.",
                        "inputName": "features", "inputDescription": "Sixteen feature values.",
                        "outputName": "scores", "outputDescription": "Scores of the three classes."},
        "inputs": [floats(16, -2, 2) for _ in range(4)],
    }
    os.makedirs(REFERENCE, exist_ok=True)
    spec_path, model_path = os.path.join(REFERENCE, "classifier.json"), os.path.join(REFERENCE, "classifier.tflite")
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1)
    environment = dict(os.environ, VISIONTASKS_WRITE_CLASSIFIER_REFERENCE=model_path)
    subprocess.run(["swift", "test", "--skip-build", "--filter", "ClassifierModelWriterTests/theRegressionFixtureIsReproduced"],
                   cwd=ROOT, env=environment, check=True)
    with open(model_path, "rb") as f:
        model = f.read()
    outputs = litert_outputs(litert(model), spec["inputs"])
    spec["litertOutputs"] = [[float(v) for v in out] for out in outputs]
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1)
        f.write("\n")
    print(f"wrote {model_path} ({len(model)} bytes) and {spec_path}; now remake what LiteRT and MediaPipe decode in "
          "it: python3 tools/references/decode_written_classifiers.py")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    litert = commands.add_parser("litert", help="compare LiteRT's outputs with ours on a written model")
    litert.add_argument("model")
    litert.add_argument("--cases", type=int, default=8)
    litert.add_argument("--seed", type=int, default=0)
    litert.add_argument("--vision-tasks", default=os.path.join(ROOT, ".build", "debug", "vision-tasks"))
    litert.set_defaults(run=check_litert)
    gesture = commands.add_parser("gesture", help="run MediaPipe's GestureRecognizer on a bundle and an image")
    gesture.add_argument("task")
    gesture.add_argument("image")
    gesture.set_defaults(run=check_gesture)
    trained = commands.add_parser("trained", help="train with vision-tasks and check the written model (make test)")
    trained.add_argument("--photos", type=int, default=4)
    trained.add_argument("--vision-tasks", default=os.path.join(ROOT, ".build", "debug", "vision-tasks"))
    trained.set_defaults(run=check_trained)
    commands.add_parser("reference", help="remake the committed reference").set_defaults(run=remake_reference)
    args = parser.parse_args()
    sys.exit(args.run(args))


if __name__ == "__main__":
    main()
