#!/usr/bin/env bash
# Checks the alert rules and runs their unit tests (npm run test:alerts). Needs promtool, which the
# Debian/Ubuntu package `prometheus` provides (.ci/run installs it when missing).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v promtool >/dev/null 2>&1; then
  echo "promtool not found: install it (apt-get install prometheus) or put it on PATH" >&2
  exit 127
fi
promtool check rules alerts.yml
promtool test rules alerts.test.yml
