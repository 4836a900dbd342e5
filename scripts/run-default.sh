#!/usr/bin/env bash
# Installs what Tessera needs, builds it, and renders the built-in scene on the a630 preset:
# the summary table on the terminal, frame.png and report.json in the current directory.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" release
"$top/build/src/tools/tessera" render --report report.json "$@"
