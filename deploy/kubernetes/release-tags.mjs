// The release's images carry package.json's version as their tag, never `latest`: every images entry
// of the kustomizations and every image of the compose files that names svc-platform or svc-pgbouncer
// (docker/build-image.sh, `npm run image`, builds those tags).
//   releaseTagProblems(root)  what differs (npm run lint, through validate.mjs)
//   writeReleaseTags(root)    sets them to the version (npm run k8s:config, after a version bump)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const IMAGES = ['svc-platform', 'svc-pgbouncer'];
const KUSTOMIZATIONS = [
  'deploy/kubernetes/base/kustomization.yaml',
  'deploy/kubernetes/overlays/production/kustomization.yaml',
  'deploy/kubernetes/overlays/production-pgbouncer/kustomization.yaml',
  'deploy/pgbouncer/kustomization.yaml',
];
const COMPOSE_FILES = ['docker/docker-compose.yml', 'deploy/pgbouncer/docker-compose.yml'];
const COMPOSE_IMAGE = new RegExp(`^(?:[\\w.:-]+/)*(${IMAGES.join('|')})(?::(.+))?$`);
const NAMES = IMAGES.join('|');

export function releaseVersion(root) {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
}

export function releaseTagProblems(root) {
  const version = releaseVersion(root);
  const problems = [];
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    problems.push(`package.json: version ${version} is not a semantic version`);
  }
  for (const file of KUSTOMIZATIONS) {
    for (const image of parse(readFileSync(join(root, file), 'utf8')).images ?? []) {
      if (IMAGES.includes(image.name) && String(image.newTag) !== version) {
        problems.push(`${file}: image ${image.name} is tagged ${image.newTag}, not the release ${version}`);
      }
    }
  }
  for (const file of COMPOSE_FILES) {
    const services = parse(readFileSync(join(root, file), 'utf8')).services ?? {};
    for (const [name, service] of Object.entries(services)) {
      const match = COMPOSE_IMAGE.exec(service.image ?? '');
      if (match && match[2] !== version) {
        problems.push(`${file}: service ${name} names ${service.image}, not the release tag ${version}`);
      }
      if (service.build && !service.image) problems.push(`${file}: service ${name} builds an image without a tag`);
    }
  }
  return problems;
}

export function writeReleaseTags(root) {
  const version = releaseVersion(root);
  for (const file of KUSTOMIZATIONS) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8').replace(
      new RegExp(`(- name: (?:${NAMES})\\n(?:[ \\t]+newName: .*\\n)?[ \\t]+newTag: ).*`, 'g'),
      `$1'${version}'`,
    );
    writeFileSync(path, text);
  }
  for (const file of COMPOSE_FILES) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8').replace(
      new RegExp(`(image: (?:[\\w.:-]+/)*(?:${NAMES})):\\S+`, 'g'),
      `$1:${version}`,
    );
    writeFileSync(path, text);
  }
}
