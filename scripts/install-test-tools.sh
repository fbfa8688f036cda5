#!/usr/bin/env bash
# Installs, from Debian's packages, what the second test stage (`pnpm test:slow`) checks our output with:
# python3-jsonschema (with the URI format checker it recommends) and python3-dateutil (which quicktype's Python types
# use for date-times), the Go toolchain, gojsonschema (the export README's Go example), and redis-server (the Redis
# store's tests start their own on 127.0.0.1), and chromium (the docs site and the inspector are driven in it
# headless, through playwright-core pointed at this browser; nothing is downloaded). Then, from the npm registry, the
# official MCP conformance suite, the Node 22 it runs on, and the official server-everything
# (test/official-suites/mcp, pinned by its lockfile). When A2A_TCK_DIR names a checkout of the official A2A TCK
# (test/official-suites/a2a-tck.test.ts runs it there; CI cannot fetch it), also the Debian Python packages its
# harness, scripts/a2a-tck, runs it with: pytest, pytest-timeout, httpx, jsonschema, grpcio and protobuf. Run
# as root before the tests start; tests never install anything. Idempotent: installs only what is missing. Waits for
# another apt or dpkg run to let go of its lock (up to 10 minutes) instead of failing; every step is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."

# The npm side: `npm ci` exactly as locked, unless every pinned package is installed at its version already.
mcp_suite=test/official-suites/mcp
installed=$(node -e "
  const dir = process.argv[1];
  const wanted = require('./' + dir + '/package.json').dependencies;
  const have = (n) => { try { return require('./' + dir + '/node_modules/' + n + '/package.json').version } catch { return '' } };
  console.log(Object.entries(wanted).every(([n, v]) => have(n) === v) ? 'yes' : 'no');
" "$mcp_suite")
if [[ "$installed" != yes ]]; then
  timeout 600 npm ci --prefix "$mcp_suite" --no-audit --no-fund --loglevel=error
  echo "install-test-tools: installed the MCP conformance suite, its Node 22 and server-everything"
fi

packages=()
/usr/bin/python3 -c 'import jsonschema, rfc3987' 2>/dev/null || packages+=(python3-jsonschema python3-rfc3987)
/usr/bin/python3 -c 'import dateutil' 2>/dev/null || packages+=(python3-dateutil)
command -v go >/dev/null 2>&1 || packages+=(golang-go)
[[ -d /usr/share/gocode/src/github.com/xeipuuv/gojsonschema ]] || packages+=(golang-github-xeipuuv-gojsonschema-dev)
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)
command -v chromium >/dev/null 2>&1 || packages+=(chromium fonts-dejavu-core)
if [[ -n "${A2A_TCK_DIR:-}" ]]; then
  /usr/bin/python3 -c 'import pytest, pytest_timeout, httpx, jsonschema, grpc, google.protobuf' 2>/dev/null ||
    packages+=(python3-pytest python3-pytest-timeout python3-httpx python3-jsonschema python3-grpcio python3-protobuf)
fi
if [[ ${#packages[@]} == 0 ]]; then
  echo "install-test-tools: everything is installed"
  exit 0
fi

if [[ $(id -u) != 0 ]]; then
  echo "install-test-tools: run as root (apt-get) to install ${packages[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
lock=(-o DPkg::Lock::Timeout=600)
timeout 900 apt-get "${lock[@]}" update -qq
timeout 900 apt-get "${lock[@]}" install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
echo "install-test-tools: installed ${packages[*]}"
