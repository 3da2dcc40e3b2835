#!/usr/bin/env bash
# Generates clients from openapi.json with three outside generators and type-checks each output under
# --strict, in a temporary folder outside the repository (the generators are fetched with npx, not
# kept as dependencies). Needs network access to the npm registry.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$root/openapi.json" .
npm init -y >/dev/null
npm install --no-audit --no-fund --ignore-scripts --silent \
  openapi-typescript@7 @hey-api/openapi-ts@0 orval@7 typescript@5 >/dev/null
cat > orval.config.js <<'JS'
module.exports = { api: { input: './openapi.json', output: { target: './out/orval/api.ts', client: 'fetch' } } };
JS
npx openapi-typescript openapi.json -o out/openapi-typescript/schema.ts >/dev/null
npx openapi-ts -i openapi.json -o out/hey-api >/dev/null
npx orval --config orval.config.js >/dev/null
for generated in openapi-typescript hey-api orval; do
  npx tsc --strict --noEmit --skipLibCheck --target es2022 --module nodenext --moduleResolution nodenext \
    --lib es2022,dom $(find "out/$generated" -name '*.ts')
  echo "$generated: generated and compiles under --strict"
done
