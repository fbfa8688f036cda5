"""Loads every exported example with the Python types quicktype generated for its protocol version: for each
examples/<Type>/<name>.json, calls <type>_from_dict from the generated module. Prints JSON: file -> error or null."""

import importlib.util
import json
import re
import sys
from pathlib import Path


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def main(export_root: Path, modules: Path) -> None:
    out = {}
    for module_file in sorted(modules.glob("*.py")):
        protocol, version = json.loads(module_file.with_suffix(".json").read_text())
        spec = importlib.util.spec_from_file_location(module_file.stem, module_file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for f in sorted((export_root / protocol / version / "examples").glob("*/*.json")):
            # quicktype spells some names its own way (JsonRpcError as jsonrpc_error): match ignoring underscores.
            wanted = f"{snake(f.parent.name)}_from_dict".replace("_", "")
            loader = getattr(module, f"{snake(f.parent.name)}_from_dict", None) or next(
                (getattr(module, n) for n in dir(module) if n.replace("_", "") == wanted), None
            )
            key = str(f.relative_to(export_root))
            if loader is None:
                out[key] = f"no {snake(f.parent.name)}_from_dict in the generated module"
                continue
            try:
                loader(json.loads(f.read_text()))
                out[key] = None
            except Exception as error:  # every failure is reported, whatever its kind
                out[key] = f"{type(error).__name__}: {error}"
    json.dump(out, sys.stdout, indent=0, sort_keys=True)


main(Path(sys.argv[1]), Path(sys.argv[2]))
