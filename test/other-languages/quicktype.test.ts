// The exported schemas in other languages, through quicktype (npm): Python types for every protocol version load every
// example (run by Debian's python3), and Go types compile and round-trip every example (Debian's golang-go, installed
// by scripts/install-test-tools.sh before this stage). What quicktype cannot carry over is listed in the export's README; these tests
// check that the list is exactly what happens.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ExportFile, renderExport } from '@agentproto/codegen';
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype } from 'quicktype-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';
import { requireTool } from '../support/tools.js';
import { isRecord } from '../support/typed.js';

let files: ExportFile[] = [];
let dir = '';
const versions: Array<{ protocol: string; version: string; bundle: string; types: string[] }> = [];

beforeAll(async () => {
  requireTool("Debian's python3-dateutil", '/usr/bin/python3', ['-c', 'import dateutil']);
  requireTool('Go', 'go', ['version']);
  files = await renderExport(ROOT);
  dir = mkdtempSync(path.join(tmpdir(), 'agentproto-quicktype-'));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, 'export', f.path)), { recursive: true });
    writeFileSync(path.join(dir, 'export', f.path), f.content);
  }
  for (const f of files.filter((x) => x.path.endsWith('/bundle.draft-07.schema.json'))) {
    const [protocol = '', version = ''] = f.path.split('/');
    versions.push({
      protocol,
      version,
      bundle: f.content,
      types: Object.keys(JSON.parse(f.content).definitions),
    });
  }
}, 900_000);

/**
 * quicktype's output for every type of a version (draft-07 bundle; classes of the same shape kept apart). The bundle
 * is given once, and every type is a pointer into it, as quicktype's command reads `bundle.json#/definitions/<type>`
 * sources: a type that several others use is then one class. (Given again with each type, the bundle would be read
 * as that many documents, each with its own copy of every class, renamed apart: several times the work.)
 */
async function generate(
  v: (typeof versions)[number],
  lang: 'python' | 'go',
  types: readonly string[],
  options: Record<string, string>,
) {
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  for (const [i, t] of types.entries())
    await input.addSource({
      name: t,
      uris: [`bundle.json#/definitions/${t}`],
      ...(i === 0 ? { schema: v.bundle } : {}),
    });
  const data = new InputData();
  data.addInput(input);
  return (
    await quicktype({ inputData: data, lang, combineClasses: false, rendererOptions: options })
  ).lines.join('\n');
}

const examples = () => files.filter((f) => /\/examples\/[^/]+\/[^/]+\.json$/.test(f.path));
const ident = (v: { protocol: string; version: string }) =>
  `${v.protocol}_${v.version}`.replace(/[^A-Za-z0-9]/g, '_');

// What quicktype cannot give a top-level Go type (documented in the export README): free-form objects that may be
// null, unions of scalars (MCP's ProgressToken) and any value (MCP's JSONValue, an empty interface, which cannot
// have methods). They still round-trip as fields of the types that hold them.
const GO_NO_TOP_LEVEL = [
  'agent-protocol/v1/StepOutput',
  'agent-protocol/v1-awaiting-input/StepOutput',
  'mcp/2025-11-25/ProgressToken',
  'mcp/2026-07-28/ProgressToken',
  'mcp/2026-07-28/JSONValue',
];
// A type that is another type under a new name (a `$ref` alone, or the same `allOf`) is that one Go type: quicktype
// writes its Unmarshal function with a type it never declares, so it is generated without it, and its examples
// round-trip through the type it is (documented in the export README).
const GO_SAME_TYPE: Record<string, string> = {
  'mcp/2025-11-25/EmptyResult': 'Result',
  'mcp/2025-11-25/CancelTaskResult': 'GetTaskResult',
  'mcp/2026-07-28/EmptyResult': 'Result',
  'mcp/2026-07-28/ClientResult': 'Result',
};
// Examples whose round trip loses something (each cause documented in the export README).
const GO_ROUND_TRIP_LOSSES = [
  // Keys an open object allows but does not name have no field in a Go struct.
  'agent-protocol/v1/examples/Artifact/extra-fields-allowed.json',
  'agent-protocol/v1/examples/TaskRequestBody/rfc-callback-url.json',
  'agentscope/1.1/examples/AgentRequest/extra-keys-allowed.json',
  'a2a/1.0/examples/ErrorDetail/bad-request.json',
  'a2a/1.0/examples/ErrorResponse/spec-not-found.json',
  'a2a/1.0/examples/ErrorStatus/not-found.json',
  'a2a/1.0/examples/JsonRpcError/invalid-params.json',
  'a2a/1.0/examples/JsonRpcErrorResponse/task-not-found.json',
  // Go leaves out an empty list as it does an empty object: `{"list": []}` comes back `{}`.
  'a2a/1.0/examples/AgentCard/secured.json',
  // Go's time package writes a timestamp its own way: `10:30:00.000Z` comes back `10:30:00Z`.
  'a2a/1.0/examples/ListTasksResponse/last-page.json',
  'a2a/1.0/examples/SendMessageResponse/task.json',
  'a2a/1.0/examples/Task/completed.json',
  'a2a/1.0/examples/TaskStatus/completed.json',
  'a2a/1.0/examples/TaskStatusUpdateEvent/working.json',
  'a2a/0.3/examples/ProtoSendMessageResponse/task.json',
  'a2a/0.3/examples/ProtoStreamResponse/final-status-update.json',
  'a2a/0.3/examples/ProtoStreamResponse/js-sdk-input-required.json',
  'a2a/0.3/examples/ProtoStreamResponse/status-update.json',
  'a2a/0.3/examples/ProtoStreamResponse/task.json',
  'a2a/0.3/examples/ProtoTask/completed-with-artifacts.json',
  'a2a/0.3/examples/ProtoTask/working.json',
  'a2a/0.3/examples/ProtoTaskStatus/input-required.json',
  'a2a/0.3/examples/ProtoTaskStatus/working.json',
  'a2a/0.3/examples/ProtoTaskStatusUpdateEvent/final.json',
  'a2a/0.3/examples/ProtoTaskStatusUpdateEvent/working.json',
  // A top-level date-time string (A2A's Timestamp) gets a Go type that cannot read a string.
  'a2a/1.0/examples/Timestamp/milliseconds.json',
  'a2a/1.0/examples/Timestamp/whole-seconds.json',
  'a2a/0.3/examples/ProtoTimestamp/utc-millis.json',
  'a2a/0.3/examples/ProtoTimestamp/utc-nanos.json',
  'a2a/0.3/examples/ProtoTimestamp/utc-seconds.json',
  'a2a/0.3/examples/ProtoTimestamp/with-offset.json',
  // MCP's open objects lose the keys they do not name the same way: `_meta`'s free-form keys, a result's extra
  // members, a tool's `inputSchema` and `outputSchema` beyond their `type`, an elicitation's `content` in a union.
  'mcp/2025-11-25/examples/ClientResult/elicit-accept.json',
  'mcp/2025-11-25/examples/GetTaskPayloadResult/tool-call-result.json',
  'mcp/2025-11-25/examples/JSONRPCMessage/result-response.json',
  'mcp/2025-11-25/examples/JSONRPCResultResponse/tool-result.json',
  'mcp/2025-11-25/examples/Result/extra-fields.json',
  'mcp/2026-07-28/examples/CallToolRequestParams/retry-with-input-responses.json',
  'mcp/2026-07-28/examples/ClientResult/with-meta.json',
  'mcp/2026-07-28/examples/CreateMessageRequest/with-tools.json',
  'mcp/2026-07-28/examples/EmptyResult/meta-only.json',
  'mcp/2026-07-28/examples/GetPromptRequestParams/retry-with-input-responses.json',
  'mcp/2026-07-28/examples/InputResponse/elicit-accepted.json',
  'mcp/2026-07-28/examples/InputResponseRequestParams/retry-with-answers.json',
  'mcp/2026-07-28/examples/InputResponses/confirm-and-roots.json',
  'mcp/2026-07-28/examples/JSONRPCMessage/result-response.json',
  'mcp/2026-07-28/examples/JSONRPCResponse/result.json',
  'mcp/2026-07-28/examples/JSONRPCResultResponse/tool-result.json',
  'mcp/2026-07-28/examples/ListToolsResult/paged.json',
  'mcp/2026-07-28/examples/ListToolsResult/weather-and-files.json',
  'mcp/2026-07-28/examples/ListToolsResultResponse/weather-tools.json',
  'mcp/2026-07-28/examples/NotificationMetaObject/request-scoped.json',
  'mcp/2026-07-28/examples/NotificationParams/with-meta.json',
  'mcp/2026-07-28/examples/PromptListChangedNotification/with-meta.json',
  'mcp/2026-07-28/examples/ReadResourceRequestParams/retry-with-answer.json',
  'mcp/2026-07-28/examples/RequestParams/with-log-level.json',
  'mcp/2026-07-28/examples/Result/extra-fields.json',
  'mcp/2026-07-28/examples/Result/input-required.json',
  'mcp/2026-07-28/examples/ServerResult/tools.json',
  'mcp/2026-07-28/examples/Tool/array-output.json',
  'mcp/2026-07-28/examples/Tool/composition-and-header.json',
  'mcp/2026-07-28/examples/Tool/delete-file.json',
  'mcp/2026-07-28/examples/Tool/weather.json',
  'mcp/2026-07-28/examples/ToolListChangedNotification/with-meta.json',
];

describe('export > quicktype', () => {
  it('python > the generated types load every example', async () => {
    const modules = path.join(dir, 'python');
    mkdirSync(modules, { recursive: true });
    for (const v of versions) {
      writeFileSync(
        path.join(modules, `${ident(v)}.py`),
        await generate(v, 'python', v.types, { 'python-version': '3.7' }),
      );
      writeFileSync(path.join(modules, `${ident(v)}.json`), JSON.stringify([v.protocol, v.version]));
    }
    // sound: load_with_quicktype_python.py prints one JSON object: for each example, null or the error loading it.
    const loaded = JSON.parse(
      execFileSync(
        '/usr/bin/python3',
        [
          path.join(ROOT, 'test/other-languages/load_with_quicktype_python.py'),
          path.join(dir, 'export'),
          modules,
        ],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      ),
    ) as Record<string, string | null>;
    expect(Object.keys(loaded)).toHaveLength(examples().length);
    expect(Object.entries(loaded).filter(([, error]) => error !== null)).toEqual([]);
    // A deadline, not a timing: quicktype takes minutes over MCP's two versions alone on a loaded machine.
  }, 1_800_000);

  it('go > the generated types compile and round-trip every example', async () => {
    const mod = path.join(dir, 'go');
    mkdirSync(mod, { recursive: true });
    writeFileSync(path.join(mod, 'go.mod'), 'module roundtrip\n\ngo 1.19\n');
    const trips: string[] = [];
    const skipped: string[] = [];
    for (const v of versions) {
      const pkg = ident(v);
      let code = await generate(v, 'go', v.types, { package: pkg });
      // A top-level type quicktype names in Unmarshal<T> but never declares cannot be used, nor one declared as the
      // empty interface (its Marshal method does not compile); generate without them.
      const undeclared = v.types.filter(
        (t) =>
          (new RegExp(`func Unmarshal${t}\\(`).test(code) && !new RegExp(`^type ${t}\\b`, 'm').test(code)) ||
          new RegExp(`^type ${t} interface\\{\\}$`, 'm').test(code),
      );
      if (undeclared.length > 0) {
        skipped.push(...undeclared.map((t) => `${v.protocol}/${v.version}/${t}`));
        code = await generate(
          v,
          'go',
          v.types.filter((t) => !undeclared.includes(t)),
          { package: pkg },
        );
      }
      mkdirSync(path.join(mod, pkg), { recursive: true });
      writeFileSync(path.join(mod, pkg, 'types.go'), code);
      // quicktype writes acronyms in capitals (Mcp → MCP): match its names to ours ignoring case.
      const unmarshal = new Map(
        [...code.matchAll(/^func Unmarshal(\w+)\(/gm)].map((m) => [String(m[1]).toLowerCase(), m[1]]),
      );
      for (const t of v.types) {
        const goName = unmarshal.get((GO_SAME_TYPE[`${v.protocol}/${v.version}/${t}`] ?? t).toLowerCase());
        if (goName)
          trips.push(
            `\t"${v.protocol}/${v.version}/${t}": func(b []byte) ([]byte, error) { v, err := ${pkg}.Unmarshal${goName}(b); if err != nil { return nil, err }; return v.Marshal() },`,
          );
      }
    }
    expect(skipped.sort()).toEqual([...GO_NO_TOP_LEVEL, ...Object.keys(GO_SAME_TYPE)].sort());
    writeFileSync(
      path.join(mod, 'main.go'),
      `package main

import (
\t"encoding/json"
\t"os"
\t"path/filepath"
\t"strings"
${versions.map((v) => `\t"roundtrip/${ident(v)}"`).join('\n')}
)

var trips = map[string]func([]byte) ([]byte, error){
${trips.join('\n')}
}

// For every example: unmarshal into the generated type and marshal it back; print file -> JSON or error.
func main() {
\tout := map[string]string{}
\tfiles, _ := filepath.Glob(filepath.Join(os.Args[1], "*", "*", "examples", "*", "*.json"))
\tfor _, f := range files {
\t\trel, _ := filepath.Rel(os.Args[1], f)
\t\tp := strings.Split(rel, string(filepath.Separator))
\t\ttrip, ok := trips[p[0]+"/"+p[1]+"/"+p[3]]
\t\tif !ok {
\t\t\tout[rel] = "!no type"
\t\t\tcontinue
\t\t}
\t\tdata, _ := os.ReadFile(f)
\t\tback, err := trip(data)
\t\tif err != nil {
\t\t\tout[rel] = "!" + err.Error()
\t\t\tcontinue
\t\t}
\t\tout[rel] = string(back)
\t}
\tjson.NewEncoder(os.Stdout).Encode(out)
}
`,
    );
    execFileSync('go', ['build', '-o', 'roundtrip', '.'], {
      cwd: mod,
      stdio: 'pipe',
      timeout: 600_000,
      env: {
        ...process.env,
        GOFLAGS: '-mod=mod',
        GOCACHE: path.join(dir, 'gocache'),
        GOPATH: path.join(dir, 'gopath'),
      },
    });
    // sound: the roundtrip program prints one JSON object: for each example file, what Go wrote back (or `!why`).
    const back = JSON.parse(
      execFileSync(path.join(mod, 'roundtrip'), [path.join(dir, 'export')], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as Record<string, string>;
    const results = examples().map((f) => {
      const [protocol, version, , type] = f.path.split('/');
      const key = `${protocol}/${version}/${type}`;
      const got = back[f.path] ?? '!not run';
      if (GO_NO_TOP_LEVEL.includes(key)) return { file: f.path, ok: got === '!no type' };
      if (got.startsWith('!')) return { file: f.path, ok: false, error: got };
      return {
        file: f.path,
        ok: JSON.stringify(normalize(JSON.parse(got))) === JSON.stringify(normalize(JSON.parse(f.content))),
        got,
      };
    });
    expect(
      results
        .filter((r) => !r.ok)
        .map((r) => r.file)
        .sort(),
    ).toEqual([...GO_ROUND_TRIP_LOSSES].sort());
  }, 1_800_000);
});

/**
 * What a Go round trip keeps: Go writes an absent optional field, a null and an empty map the same way (omitted or
 * null), so all three are dropped before comparing; key order does not count.
 */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = normalize(value[k]);
    const empty = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
    if (v !== null && !empty) out[k] = v;
  }
  return out;
}
