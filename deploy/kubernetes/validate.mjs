// Renders the kustomizations of this folder (base and overlays) the way `kubectl kustomize` does for
// the features they use, and validates every object against the Kubernetes (and Prometheus
// Operator) schemas shipped in npm packages: no cluster and no network needed.
//   node deploy/kubernetes/validate.mjs          validate (run by npm run lint)
//   node deploy/kubernetes/validate.mjs --write  regenerate base/configmap.yaml from .env.example,
//                                                base/prometheus-rule.yaml from deploy/prometheus/alerts.yml
//                                                and the images' release tags from package.json
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse, stringify } from 'yaml';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as core from 'kubernetes-models/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as monitoring from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { checkMonitoring, prometheusRuleYaml } from './monitoring.mjs';
import { releaseTagProblems, writeReleaseTags } from './release-tags.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const KUSTOMIZATIONS = ['base', 'overlays/production', 'overlays/production-pgbouncer'];

/** Settings that go to the Secret, never the ConfigMap. */
export const SECRET_SETTING =
  /(SECRET|_KEY$|_KEY_ID$|PRIVATE_KEY|PASSWORD$|_TOKEN$|^SMTP_URL$|^DATABASE_(DIRECT_)?URL$|^REDIS_URL$)/;

/** Values of the ConfigMap that differ from .env.example's development defaults. */
const CLUSTER_VALUES = {
  NODE_ENV: 'production',
  LOG_FORMAT: 'json',
  TRUST_PROXY_HOPS: '1',
  MULTITENANCY_DB_HOST: 'postgres',
  MULTITENANCY_DATABASE_AUTO_MIGRATE: 'false',
  QUEUE_PROCESSORS_ENABLED: 'false',
  STORAGE_DIR: '/app/storage',
};

const MODELS = {
  'apps/v1/Deployment': apps.Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': autoscaling.HorizontalPodAutoscaler,
  'batch/v1/Job': batch.Job,
  'v1/ConfigMap': core.ConfigMap,
  'v1/Secret': core.Secret,
  'v1/Service': core.Service,
  'policy/v1/PodDisruptionBudget': policy.PodDisruptionBudget,
  'monitoring.coreos.com/v1/ServiceMonitor': monitoring.ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': monitoring.PrometheusRule,
};

function envExample() {
  return readFileSync(join(ROOT, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter(Boolean)
    .map(([, key, value]) => [key, value]);
}

function configMap() {
  const data = Object.fromEntries(
    envExample()
      .filter(([key]) => !SECRET_SETTING.test(key))
      .map(([key, value]) => [key, CLUSTER_VALUES[key] ?? value]),
  );
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'svc-platform-config' }, data };
}

const readYaml = (path) =>
  parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => doc.toJS())
    .filter(Boolean);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Strategic merge as kustomize does it for these manifests: maps deep, lists of named items by name. */
function merge(target, patch) {
  if (Array.isArray(target) && Array.isArray(patch) && patch.every((p) => isObject(p) && p.name)) {
    const out = target.map((t) => ({ ...t }));
    for (const item of patch) {
      const i = out.findIndex((t) => t.name === item.name);
      if (i >= 0) out[i] = merge(out[i], item);
      else out.push(item);
    }
    return out;
  }
  if (!isObject(target) || !isObject(patch)) return patch;
  const out = { ...target };
  for (const [key, value] of Object.entries(patch)) out[key] = key in out ? merge(out[key], value) : value;
  return out;
}

/** A configMapGenerator entry (files only). Names keep no hash suffix, so the generator must say so. */
function generatedConfigMap(dir, k, g) {
  const options = { ...k.generatorOptions, ...g.options };
  if (!options.disableNameSuffixHash) throw new Error(`${dir}: generator ${g.name} needs disableNameSuffixHash`);
  const data = {};
  for (const file of g.files ?? []) {
    const [key, path] = file.includes('=') ? file.split('=') : [basename(file), file];
    data[key] = readFileSync(join(dir, path), 'utf8');
  }
  const metadata = { name: g.name, ...(options.labels && { labels: options.labels }) };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
}

function render(dir) {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
  let objects = (k.resources ?? []).flatMap((r) => {
    const path = join(dir, r);
    return statSync(path).isDirectory() ? render(path) : readYaml(path);
  });
  for (const g of k.configMapGenerator ?? []) objects.push(generatedConfigMap(dir, k, g));
  for (const { path } of k.patches ?? []) {
    for (const patch of readYaml(join(dir, path))) {
      const i = objects.findIndex((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
      if (i < 0) throw new Error(`${dir}: patch ${path} targets no ${patch.kind} ${patch.metadata.name}`);
      objects[i] = merge(objects[i], patch);
    }
  }
  for (const { pairs } of k.labels ?? []) {
    objects = objects.map((o) => merge(o, { metadata: { labels: pairs } }));
  }
  if (k.namespace) objects = objects.map((o) => merge(o, { metadata: { namespace: k.namespace } }));
  for (const image of k.images ?? []) {
    const ref = `${image.newName ?? image.name}:${image.newTag}`;
    for (const o of objects) {
      for (const c of o.spec?.template?.spec?.containers ?? []) {
        if (c.image === image.name || c.image.startsWith(`${image.name}:`)) c.image = ref;
      }
    }
  }
  return objects;
}

/** PgBouncer (deploy/pgbouncer) answers no HTTP: its probes open its port instead. */
const isPgBouncer = (container) => /(^|\/)[\w.-]*pgbouncer[\w.-]*(:|$)/.test(container.image ?? '');

/** Liveness and readiness (a startup probe too, if any) are tcpSocket probes on a port the container declares. */
function checkTcpProbes(c, where, problems) {
  const ports = new Set((c.ports ?? []).flatMap((p) => [p.containerPort, p.name].filter(Boolean)));
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (probe === 'startupProbe' && !c[probe]) continue;
    const port = c[probe]?.tcpSocket?.port;
    if (port === undefined) problems.push(`${where}: ${probe} is not a tcpSocket probe`);
    else if (!ports.has(port)) problems.push(`${where}: ${probe} opens port ${port}, not one the container declares`);
  }
}

function check(name, objects, problems) {
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  for (const o of objects) {
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) {
      problems.push(`${name}: no schema for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Model(o).validate();
    } catch (err) {
      problems.push(`${name}: ${o.kind} ${o.metadata?.name}: ${err.message}`);
    }
  }
  const settings = new Map(envExample());
  for (const cm of byKind('ConfigMap').filter((o) => o.metadata.name === 'svc-platform-config')) {
    for (const key of Object.keys(cm.data ?? {})) {
      if (SECRET_SETTING.test(key)) problems.push(`${name}: ConfigMap carries the secret ${key}`);
      if (!settings.has(key)) problems.push(`${name}: ConfigMap names ${key}, which .env.example does not`);
    }
  }
  for (const secret of byKind('Secret')) {
    for (const key of Object.keys(secret.stringData ?? {})) {
      if (!settings.has(key)) problems.push(`${name}: Secret names ${key}, which .env.example does not`);
    }
    for (const required of ['JWT_SECRET', 'ENCRYPTION_KEY', 'DATABASE_URL', 'REDIS_URL']) {
      if (!(required in (secret.stringData ?? {}))) problems.push(`${name}: Secret lacks ${required}`);
    }
  }
  for (const d of [...byKind('Deployment'), ...byKind('Job')]) {
    for (const c of d.spec.template.spec.containers) {
      const where = `${name}: ${d.kind} ${d.metadata.name}/${c.name}`;
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) problems.push(`${where}: no requests`);
      if (d.kind === 'Deployment' && isPgBouncer(c)) checkTcpProbes(c, where, problems);
      else if (d.kind === 'Deployment') {
        for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
          const path = c[probe]?.httpGet?.path;
          if (!path?.startsWith('/management/health')) problems.push(`${where}: ${probe} not on a health endpoint`);
        }
      }
    }
  }
  const kinds = new Set(objects.map((o) => o.kind));
  const required = ['Deployment', 'Job', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ServiceMonitor', 'PrometheusRule'];
  for (const kind of required) {
    if (!kinds.has(kind)) problems.push(`${name}: no ${kind}`);
  }
}

if (process.argv.includes('--write')) {
  const header =
    '# Non-secret settings, generated from .env.example by `node deploy/kubernetes/validate.mjs --write`\n' +
    '# (cluster values for NODE_ENV, LOG_FORMAT, storage, migrations, proxy hops). Secrets: secret.yaml.\n';
  writeFileSync(join(HERE, 'base', 'configmap.yaml'), header + stringify(configMap()));
  writeFileSync(join(HERE, 'base', 'prometheus-rule.yaml'), prometheusRuleYaml(ROOT));
  writeReleaseTags(ROOT);
} else {
  const problems = [...releaseTagProblems(ROOT)];
  const counts = [];
  for (const name of KUSTOMIZATIONS) {
    const objects = render(join(HERE, name));
    check(name, objects, problems);
    checkMonitoring(name, objects, ROOT, problems);
    counts.push(`${name}: ${objects.length} objects`);
  }
  const missing = envExample()
    .map(([key]) => key)
    .filter((key) => !SECRET_SETTING.test(key) && !(key in configMap().data));
  if (missing.length) problems.push(`configmap: regenerate (--write) for ${missing.join(', ')}`);
  const cm = readYaml(join(HERE, 'base', 'configmap.yaml'))[0];
  const stale = Object.keys(configMap().data).filter((key) => !(key in (cm?.data ?? {})));
  if (stale.length) {
    process.stdout.write(
      `note: base/configmap.yaml lacks ${stale.join(', ')} (their defaults apply); regenerate with --write\n`,
    );
  }
  if (problems.length) {
    process.stderr.write(`Kubernetes manifests are invalid:\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`Kubernetes manifests valid (${counts.join('; ')})\n`);
}
