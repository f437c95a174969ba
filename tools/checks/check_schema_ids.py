#!/usr/bin/env python3
"""Checks every number of the FlatBuffer schemas VisionTasks declares against Google's generated schemas.

The TFLite reader and ClassifierModelWriter share one declaration of each schema: Sources/TFLite/TFLiteSchema.swift
(tensorflow/lite/schema/schema.fbs) and Sources/TFLite/MetadataSchema.swift (metadata_schema.fbs), a table as an
enum of its fields in declaration order (a case's raw value is the field's id), a union or an enum as its tags or
values; a few schema enums are public types of their own
(Padding, ActivationFunction, AssociatedFileType, BuiltinOperator). This tool reads those Swift declarations and
compares each number with the Python code generated from the same schemas by flatc:
  - a table field's id with the slot its generated builder writes (`def ModelAddOperatorCodes(builder, ...):
    builder.PrependUOffsetTRelativeSlot(1, ...)`);
  - a union tag or enum value with the generated class's constant (`BuiltinOptions.FullyConnectedOptions = 8`).
Names are compared without case and underscores (`tensorAxisLabels` is TENSOR_AXIS_LABELS). A deprecated field
(flatc generates nothing for it) is accepted where its id is no generated field's, and printed. The generated schemas
are ai-edge-litert 2.3.0's ai_edge_litert/schema_py_generated.py and mediapipe 1.2.2's
mediapipe/tasks/metadata/metadata_schema_py_generated.py (`pip install ai-edge-litert==2.3.0 mediapipe==1.2.2`).

Usage (repository root): python3 tools/checks/check_schema_ids.py   (exit status 1 on any difference)
"""
import argparse
import inspect
import os
import re
import sys

from ai_edge_litert import schema_py_generated as tfl
from mediapipe.tasks.metadata import metadata_schema_py_generated as md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TFLITE = os.path.join(ROOT, "Sources", "TFLite")

# Swift file → the generated module it mirrors.
SCHEMA_FILES = [("TFLiteSchema.swift", tfl), ("MetadataSchema.swift", md)]
# Public schema enums declared outside the schema files: (file, Swift name, module, generated name).
PUBLIC_ENUMS = [
    ("BuiltinOptions.swift", "Padding", tfl, "Padding"),
    ("BuiltinOptions.swift", "ActivationFunction", tfl, "ActivationFunctionType"),
    ("ModelMetadata.swift", "AssociatedFileType", md, "AssociatedFileType"),
]


def plain(name):
    return name.replace("_", "").lower()


def enums(source):
    """Each `enum Name: RawType[, FlatBufferField] { case a, b = 3 ... }` of `source`: name, whether it is a table's
    fields, and its (case, value) pairs; a case without `= value` is one more than the case before (0 for the first),
    as Swift numbers them."""
    found = []
    for match in re.finditer(r"enum (\w+): (?:Int|UInt8|Int8)((?:, \w+)*) \{", source):
        depth, end = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(source[end], 0)
            end += 1
        body = source[match.end():end - 1]
        cases, value = [], -1
        for declaration in re.findall(r"(?:^|\{|\n)\s*case ([^:.\n{}]+)", body):
            for item in declaration.split(","):
                name, _, explicit = item.partition("=")
                value = int(explicit) if explicit.strip() else value + 1
                cases.append((name.strip(), value))
        found.append((match.group(1), "FlatBufferField" in match.group(2), cases))
    return found


def generated_slots(module, table):
    """Field name → slot, from the generated builder functions of `table`."""
    source = inspect.getsource(module)
    pattern = r"def %sAdd(\w+)\(builder, \w+\):\n\s+builder\.Prepend\w*Slot\((\d+)," % table
    return {plain(name): int(slot) for name, slot in re.findall(pattern, source)}


def generated_values(module, name):
    """Constant name → value of a generated union or enum class."""
    cls = getattr(module, name, None)
    if cls is None:
        return None
    return {plain(key): value for key, value in vars(cls).items() if not key.startswith("_") and isinstance(value, int)}


def main():
    problems, checked = [], 0

    def compare(what, cases, expected, table=False):
        nonlocal checked
        if expected is None or not expected:
            problems.append(f"{what}: the generated schema has no such table, union or enum")
            return
        for case, value in cases:
            theirs = expected.get(plain(case))
            checked += 1
            if theirs is None and table and value not in expected.values():
                # A deprecated field: flatc generates nothing for it, but it keeps its id.
                print(f"check_schema_ids: {what}.{case} is {value}, a slot the generated schema leaves out (deprecated)")
            elif theirs != value:
                problems.append(f"{what}.{case} is {value}, the generated schema says {theirs}")

    for file, module in SCHEMA_FILES:
        with open(os.path.join(TFLITE, file)) as f:
            declared = enums(f.read())
        if not declared:
            problems.append(f"{file}: no schema declarations found")
        for name, is_table, cases in declared:
            expected = generated_slots(module, name) if is_table else generated_values(module, name)
            compare(f"{file}: {name}", cases, expected, table=is_table)
    for file, name, module, generated in PUBLIC_ENUMS:
        with open(os.path.join(TFLITE, file)) as f:
            declared = {n: cases for n, _, cases in enums(f.read().replace("\n}", "\n    }"))}
        if name not in declared:
            problems.append(f"{file}: enum {name} not found")
            continue
        compare(f"{file}: {name}", declared[name], generated_values(module, generated))
    # Each operator constant follows a doc comment with its schema name and value ("/// IF (118)." before ifOp).
    with open(os.path.join(TFLITE, "BuiltinOperator.swift")) as f:
        operators = re.findall(
            r"/// (\w+) \((-?\d+)\)\.\n\s*public static let \w+ = BuiltinOperator\(rawValue: (-?\d+)\)", f.read())
    for name, documented, value in operators:
        if documented != value:
            problems.append(f"BuiltinOperator.swift: {name} is documented as {documented} but is {value}")
    if not operators:
        problems.append("BuiltinOperator.swift: no operator constants found")
    compare("BuiltinOperator.swift: BuiltinOperator", [(n, int(v)) for n, _, v in operators],
            generated_values(tfl, "BuiltinOperator"))

    for problem in problems:
        print("check_schema_ids:", problem)
    print(f"check_schema_ids: {checked} field ids, tags and values checked against ai-edge-litert's and mediapipe's "
          f"generated schemas, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
