#!/usr/bin/env bash
# Builds the release's images, tagged with package.json's version (never `latest`):
#   <registry>/svc-platform:<version>   docker/Dockerfile (API, worker and migration Job)
#   <registry>/svc-pgbouncer:<version>  deploy/pgbouncer/Dockerfile (the PgBouncer option)
# The Kubernetes overlays and the compose files name the same tags (`npm run lint` checks it).
#   npm run image                                    local names, svc-platform:1.0.0
#   IMAGE_REGISTRY=registry.example.com npm run image -- --push
# The commit built is recorded in the image (GET /management/info answers it); a tree with
# uncommitted changes is refused unless ALLOW_DIRTY=1, so a tag always names one commit.
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(node -p "require('./package.json').version")"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "package.json version '$version' is not a semantic version" >&2
  exit 1
fi
commit="$(git rev-parse HEAD)"
if [ -n "$(git status --porcelain --untracked-files=no)" ] && [ "${ALLOW_DIRTY:-0}" != 1 ]; then
  echo "Uncommitted changes: commit them first (or ALLOW_DIRTY=1 for a local build)" >&2
  exit 1
fi
prefix="${IMAGE_REGISTRY:+${IMAGE_REGISTRY%/}/}"
platform="${prefix}svc-platform:${version}"
pgbouncer="${prefix}svc-pgbouncer:${version}"

docker build -f docker/Dockerfile --build-arg "COMMIT=${commit}" -t "$platform" .
docker build -t "$pgbouncer" deploy/pgbouncer
echo "Built $platform and $pgbouncer (commit ${commit})"

if [ "${1:-}" = "--push" ]; then
  docker push "$platform"
  docker push "$pgbouncer"
fi
