import type { ServerIdentity } from '../database/server-admin.repository';

export function sameServer(a: ServerIdentity | null | undefined, b: ServerIdentity | null | undefined) {
  return !!a && !!b && a.systemIdentifier === b.systemIdentifier && a.clusterPort === b.clusterPort;
}

export const describeIdentity = (id: ServerIdentity) =>
  `system ${id.systemIdentifier}, port ${id.clusterPort}`;
