import { ClientInit1732200000000 } from './1732200000000-ClientInit';
import { Units1732300000000 } from './1732300000000-Units';

/** Client migration set, in order: run on every client database (and the master, which is a tenant too). */
export const CLIENT_MIGRATIONS = [ClientInit1732200000000, Units1732300000000];
