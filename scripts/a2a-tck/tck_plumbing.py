"""Plumbing that lets the official A2A TCK (1.0 line) run on Debian's Python, loaded with ``-p tck_plumbing``.

Nothing here changes a test or an assertion of the TCK. It fills in what Debian's packages lack, keeps the TCK's
webhook receiver on the loopback interface, and writes each test's outcome as JSON for scripts/a2a-tck/run.ts:

* ``google.protobuf.runtime_version``: the TCK's generated ``a2a_pb2`` asks protobuf 5.26 or later to vouch for the
  generated code's version; Debian's protobuf (3.21, Python package 4.21) has no such module. The stand-in accepts
  every version: the descriptors the file adds are read by the runtime as they are.
* ``google.api.*_pb2`` and ``google.rpc.*_pb2`` (googleapis-common-protos, not packaged by Debian): ``a2a.proto``
  imports three of googleapis' files by name, and the TCK's gRPC error checks read ``google.rpc.Status`` and
  ``ErrorInfo``. Each is described here with the fields the TCK touches (field numbers as googleapis publishes them)
  and registered under googleapis' file name, so ``a2a_pb2`` loads with its own descriptors, unchanged.
* the webhook receiver (``tck.webhook.server.WebhookReceiver``) binds every interface by default; here it binds
  127.0.0.1, the address the agent is told to deliver to (``--webhook-host=127.0.0.1``).
* ``--harness-results=<file>``: per test id, ``passed``, ``failed``, ``skipped``, ``xfailed``, ``xpassed`` or
  ``error`` (a setup or teardown that failed, or a file that could not be collected), with pytest's short reason.
"""

from __future__ import annotations

import json
import sys
import types

from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.internal import builder


# ---------------------------------------------------------------------------
# google.protobuf.runtime_version
# ---------------------------------------------------------------------------


def _install_runtime_version() -> None:
    try:
        import google.protobuf.runtime_version  # noqa: F401  (a protobuf that has it keeps its own)

        return
    except ImportError:
        pass
    module = types.ModuleType("google.protobuf.runtime_version")

    class Domain:
        """The domains generated code names (only their names matter here)."""

        GOOGLE_INTERNAL = 1
        PUBLIC = 2

    def validate(domain, major, minor, patch, suffix, location):  # noqa: ARG001
        """Accepts every generated file: Debian's protobuf reads 6.x descriptors as they are."""

    module.Domain = Domain
    module.ValidateProtobufRuntimeVersion = validate
    sys.modules[module.__name__] = module
    import google.protobuf

    google.protobuf.runtime_version = module


# ---------------------------------------------------------------------------
# googleapis files a2a.proto and the TCK import
# ---------------------------------------------------------------------------

_F = descriptor_pb2.FieldDescriptorProto


def _field(name: str, number: int, kind: int, *, repeated: bool = False, type_name: str = "") -> _F:
    field = _F(name=name, number=number, type=kind, json_name=_camel(name))
    field.label = _F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL
    if type_name:
        field.type_name = type_name
    return field


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def _file(name: str, package: str, deps: list[str]) -> descriptor_pb2.FileDescriptorProto:
    return descriptor_pb2.FileDescriptorProto(name=name, package=package, syntax="proto3", dependency=deps)


def _googleapis_files() -> list[tuple[str, descriptor_pb2.FileDescriptorProto]]:
    """(module name, file) for each googleapis file, dependencies first."""
    annotations = _file("google/api/annotations.proto", "google.api", [])

    client = _file("google/api/client.proto", "google.api", ["google/protobuf/descriptor.proto"])
    signature = _field("method_signature", 1051, _F.TYPE_STRING, repeated=True)
    signature.extendee = ".google.protobuf.MethodOptions"
    client.extension.append(signature)

    behavior = _file("google/api/field_behavior.proto", "google.api", ["google/protobuf/descriptor.proto"])
    values = [
        "FIELD_BEHAVIOR_UNSPECIFIED",
        "OPTIONAL",
        "REQUIRED",
        "OUTPUT_ONLY",
        "INPUT_ONLY",
        "IMMUTABLE",
        "UNORDERED_LIST",
        "NON_EMPTY_DEFAULT",
        "IDENTIFIER",
    ]
    behavior.enum_type.append(
        descriptor_pb2.EnumDescriptorProto(
            name="FieldBehavior",
            value=[descriptor_pb2.EnumValueDescriptorProto(name=v, number=i) for i, v in enumerate(values)],
        )
    )
    extension = _field("field_behavior", 1052, _F.TYPE_ENUM, repeated=True, type_name=".google.api.FieldBehavior")
    extension.extendee = ".google.protobuf.FieldOptions"
    extension.options.packed = False
    behavior.extension.append(extension)

    status = _file("google/rpc/status.proto", "google.rpc", ["google/protobuf/any.proto"])
    status.message_type.append(
        descriptor_pb2.DescriptorProto(
            name="Status",
            field=[
                _field("code", 1, _F.TYPE_INT32),
                _field("message", 2, _F.TYPE_STRING),
                _field("details", 3, _F.TYPE_MESSAGE, repeated=True, type_name=".google.protobuf.Any"),
            ],
        )
    )

    details = _file("google/rpc/error_details.proto", "google.rpc", [])
    entry = descriptor_pb2.DescriptorProto(
        name="MetadataEntry",
        field=[_field("key", 1, _F.TYPE_STRING), _field("value", 2, _F.TYPE_STRING)],
    )
    entry.options.map_entry = True
    details.message_type.append(
        descriptor_pb2.DescriptorProto(
            name="ErrorInfo",
            field=[
                _field("reason", 1, _F.TYPE_STRING),
                _field("domain", 2, _F.TYPE_STRING),
                _field(
                    "metadata", 3, _F.TYPE_MESSAGE, repeated=True, type_name=".google.rpc.ErrorInfo.MetadataEntry"
                ),
            ],
            nested_type=[entry],
        )
    )
    return [
        ("google.api.annotations_pb2", annotations),
        ("google.api.client_pb2", client),
        ("google.api.field_behavior_pb2", behavior),
        ("google.rpc.status_pb2", status),
        ("google.rpc.error_details_pb2", details),
    ]


def _install_googleapis() -> None:
    # Those the interpreter can import already (a python3-googleapis-common-protos, one day) are left alone.
    try:
        import google.api.annotations_pb2  # noqa: F401
        import google.rpc.error_details_pb2  # noqa: F401

        return
    except ImportError:
        pass
    import google
    import google.protobuf.any_pb2  # noqa: F401  (registers google/protobuf/any.proto in the pool)
    import google.protobuf.descriptor_pb2  # noqa: F401

    pool = descriptor_pool.Default()
    for package in ("google.api", "google.rpc"):
        module = types.ModuleType(package)
        module.__path__ = []  # a package: its submodules are found in sys.modules
        sys.modules[package] = module
        setattr(google, package.split(".")[1], module)
    for module_name, file_proto in _googleapis_files():
        module = types.ModuleType(module_name)
        namespace = module.__dict__
        namespace["DESCRIPTOR"] = pool.AddSerializedFile(file_proto.SerializeToString())
        builder.BuildMessageAndEnumDescriptors(namespace["DESCRIPTOR"], namespace)
        builder.BuildTopDescriptorsAndMessages(namespace["DESCRIPTOR"], module_name, namespace)
        sys.modules[module_name] = module
        package, _, leaf = module_name.rpartition(".")
        setattr(sys.modules[package], leaf, module)


_install_runtime_version()
_install_googleapis()


# ---------------------------------------------------------------------------
# pytest hooks: the webhook receiver on loopback, the results file
# ---------------------------------------------------------------------------


def pytest_addoption(parser) -> None:
    """Registers --harness-results."""
    parser.addoption(
        "--harness-results",
        dest="harness_results",
        default=None,
        help="write each test's outcome to this JSON file (scripts/a2a-tck)",
    )


def pytest_sessionstart(session) -> None:
    """Points the TCK's webhook receiver at 127.0.0.1 instead of every interface."""
    from tck.webhook import server

    init = server.WebhookReceiver.__init__
    # The dataclass's generated __init__ holds the field's default; its only parameter is `host`.
    if init.__defaults__ != ("0.0.0.0",):
        raise RuntimeError(f"tck_plumbing: WebhookReceiver's defaults are {init.__defaults__!r}, not ('0.0.0.0',)")
    init.__defaults__ = ("127.0.0.1",)


_outcomes: dict[str, dict[str, str]] = {}


def _reason(report) -> str:
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple):  # a skip: (file, line, reason)
        return str(longrepr[2])
    crash = getattr(getattr(longrepr, "reprcrash", None), "message", None)
    text = crash if crash else str(longrepr)
    return text.strip().splitlines()[0][:500] if text.strip() else ""


def pytest_collectreport(report) -> None:
    """A file that could not be collected is an error under its own id."""
    if report.failed:
        _outcomes[report.nodeid] = {"outcome": "error", "reason": _reason(report)}


def pytest_runtest_logreport(report) -> None:
    """Keeps each test's outcome: its call's, or its setup's when that failed or skipped, or its teardown's error."""
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if xfail:
            outcome = "xfailed" if report.skipped else "xpassed"
        else:
            outcome = report.outcome
        entry = {"outcome": outcome, "reason": str(report.wasxfail) if xfail and report.skipped else _reason(report)}
        _outcomes[report.nodeid] = entry
    elif report.when == "setup" and not report.passed:
        if xfail and report.skipped:
            _outcomes[report.nodeid] = {"outcome": "xfailed", "reason": str(report.wasxfail)}
        else:
            outcome = "skipped" if report.skipped else "error"
            _outcomes[report.nodeid] = {"outcome": outcome, "reason": _reason(report)}
    elif report.when == "teardown" and report.failed:
        _outcomes[report.nodeid] = {"outcome": "error", "reason": _reason(report)}


def pytest_sessionfinish(session, exitstatus) -> None:
    """Writes the results file (tests in the order they ran) with pytest's exit status."""
    path = session.config.getoption("harness_results")
    if not path:
        return
    body = {"exitstatus": int(exitstatus), "tests": _outcomes}
    Path(path).write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
