import { PlatformInit1732100000000 } from './1732100000000-PlatformInit';
import { DatabaseServers1734800000000 } from './1734800000000-DatabaseServers';
import { DatabaseServerPoolers1735400000000 } from './1735400000000-DatabaseServerPoolers';
import { Backups1735600000000 } from './1735600000000-Backups';
import { DatabaseServerIdentity1736000000000 } from './1736000000000-DatabaseServerIdentity';
import { ClientMoves1736200000000 } from './1736200000000-ClientMoves';
import { DatabaseServerLogicalReplication1736300000000 } from './1736300000000-DatabaseServerLogicalReplication';

/** Master-only migration set (platform registry); the master also runs the client set. */
export const MASTER_MIGRATIONS = [
  PlatformInit1732100000000,
  DatabaseServers1734800000000,
  DatabaseServerPoolers1735400000000,
  Backups1735600000000,
  DatabaseServerIdentity1736000000000,
  ClientMoves1736200000000,
  DatabaseServerLogicalReplication1736300000000,
];
