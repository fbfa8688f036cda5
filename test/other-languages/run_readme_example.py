"""Runs a Python program exactly as written, once per group of arguments, in this one interpreter (so that hundreds of
runs do not each pay Python's start and imports): for each group, sys.argv is the program's name and the group's
arguments, the program runs as __main__, and its printed output and exit code are kept. Prints one JSON list, a
{"code", "stdout"} object per group, in order.

python3 run_readme_example.py <program.py> <groups.json>   (groups.json: a list of argument lists)"""

import contextlib
import io
import json
import runpy
import sys

program, groups_file = sys.argv[1], sys.argv[2]
with open(groups_file, encoding="utf-8") as f:
    groups = json.load(f)
results = []
for arguments in groups:
    sys.argv = [program, *arguments]
    printed = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(printed):
        try:
            runpy.run_path(program, run_name="__main__")
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    results.append({"code": code, "stdout": printed.getvalue()})
json.dump(results, sys.stdout)
