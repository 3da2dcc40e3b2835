import { PlatformInit1732100000000 } from './1732100000000-PlatformInit';

/** Master-only migration set (platform registry); the master also runs the client set. */
export const MASTER_MIGRATIONS = [PlatformInit1732100000000];
