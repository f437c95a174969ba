#!/usr/bin/env python3
"""Rewrites README.md's "Task options" tables from the library's declaration of every option.

    python3 tools/checks/readme_task_options.py .build/debug/vision-tasks

The tables are what `vision-tasks tasks --markdown` prints, between the markers
<!-- task-options:begin --> and <!-- task-options:end -->. VisionTasksCLITests fails when the README
holds anything else there, so a changed option is one declaration plus this command.
"""
import os
import subprocess
import sys

BEGIN, END = "<!-- task-options:begin -->", "<!-- task-options:end -->"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: readme_task_options.py VISION_TASKS_BINARY")
    tables = subprocess.run([sys.argv[1], "tasks", "--markdown"], check=True, capture_output=True, text=True).stdout
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        sys.exit("readme_task_options: README.md has no %s ... %s section" % (BEGIN, END))
    text = text[:start + len(BEGIN)] + "\n" + tables + text[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print("readme_task_options: README.md's task options written")


if __name__ == "__main__":
    main()
