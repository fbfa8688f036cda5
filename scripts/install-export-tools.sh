#!/usr/bin/env bash
# Installs what the export tests check the exported schemas with, from Debian's packages: python3-jsonschema (with
# the URI format checker it recommends), python3-dateutil (which quicktype's Python types use for date-times) and,
# when asked with --go, the Go toolchain. Idempotent; each step bounded.
set -euo pipefail

need_python=0
/usr/bin/python3 -c 'import jsonschema, rfc3987, dateutil' 2>/dev/null || need_python=1
need_go=0
if [[ "${1:-}" == "--go" ]] && ! command -v go >/dev/null 2>&1; then need_go=1; fi
[[ $need_python == 0 && $need_go == 0 ]] && exit 0

if [[ $(id -u) != 0 ]]; then
  echo "install-export-tools: run as root (apt-get) to install python3-jsonschema${1:+ and golang-go}" >&2
  exit 1
fi
packages=()
[[ $need_python == 1 ]] && packages+=(python3-jsonschema python3-rfc3987 python3-dateutil)
[[ $need_go == 1 ]] && packages+=(golang-go)
export DEBIAN_FRONTEND=noninteractive
timeout 300 apt-get update -qq
timeout 600 apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
