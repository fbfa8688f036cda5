"""Validates every exported example and counterexample with Debian's python3-jsonschema, three ways: against the
per-type file (2020-12), the 2020-12 bundle and the draft-07 bundle. Prints one JSON object: file -> [verdicts]."""

import json
import re
import sys
from pathlib import Path

from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker, RefResolver

checker = FormatChecker()

# jsonschema checks date-time only with an optional package Debian does not ship; RFC 3339's grammar is short.
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


@checker.checks("date-time")
def is_datetime(value):
    return not isinstance(value, str) or bool(RFC3339.match(value))


def main(root: Path) -> None:
    out = {}
    for version_dir in sorted(p for p in root.glob("*/*") if (p / "bundle.schema.json").exists()):
        schemas = {f.name: json.loads(f.read_text()) for f in version_dir.glob("*.schema.json")}
        types = {name[: -len(".schema.json")]: s for name, s in schemas.items() if "$id" in s and not name.startswith("bundle")}
        store = {s["$id"]: s for s in types.values()}
        bundle = schemas["bundle.schema.json"]
        bundle07 = schemas["bundle.draft-07.schema.json"]
        store[bundle["$id"]] = bundle
        for d in bundle["$defs"].values():
            store[d["$id"]] = d
        for kind in ("examples", "counterexamples"):
            for f in sorted((version_dir / kind).glob("*/*.json")):
                type_name = f.parent.name
                instance = json.loads(f.read_text())
                schema = types[type_name]
                per_type = Draft202012Validator(schema, resolver=RefResolver(schema["$id"], schema, store=store), format_checker=checker)
                in_bundle = Draft202012Validator(
                    {"$ref": f"{bundle['$id']}#/$defs/{type_name}"},
                    resolver=RefResolver(bundle["$id"], bundle, store=store),
                    format_checker=checker,
                )
                draft07 = Draft7Validator(
                    {"$ref": f"#/definitions/{type_name}", "definitions": bundle07["definitions"]},
                    format_checker=checker,
                )
                out[str(f.relative_to(root))] = [v.is_valid(instance) for v in (per_type, in_bundle, draft07)]
    json.dump(out, sys.stdout, indent=0, sort_keys=True)


main(Path(sys.argv[1]))
