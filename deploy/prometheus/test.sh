#!/usr/bin/env bash
# Checks the alert rules, runs their unit tests, and checks that every query of the Grafana dashboard
# parses (npm run test:alerts). Needs promtool, which the Debian/Ubuntu package `prometheus` provides
# (.ci/run installs it when missing).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v promtool >/dev/null 2>&1; then
  echo "promtool not found: install it (apt-get install prometheus) or put it on PATH" >&2
  exit 127
fi
promtool check rules alerts.yml
promtool test rules alerts.test.yml

# The dashboard's queries, with Grafana's variables replaced, as recording rules promtool can check.
queries="$(mktemp --suffix=.yml)"
trap 'rm -f "$queries"' EXIT
node -e '
  const { panels } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const vars = { __rate_interval: "5m", job: ".*", route: ".*" };
  const rules = panels.flatMap((p) => p.targets ?? []).map((t, i) => ({
    record: `dashboard:query_${i}`,
    expr: t.expr.replace(/\$(\w+)/g, (_, name) => vars[name] ?? `$${name}`),
  }));
  console.log(JSON.stringify({ groups: [{ name: "dashboard", rules }] }));
' ../grafana/svc-platform.json >"$queries"
echo "Dashboard queries:"
promtool check rules "$queries"
