import { ClientInit1732200000000 } from './1732200000000-ClientInit';
import { Units1732300000000 } from './1732300000000-Units';
import { Identity1733000000000 } from './1733000000000-Identity';
import { AuditTrail1733100000000 } from './1733100000000-AuditTrail';
import { AuditDailyRollups1733110000000 } from './1733110000000-AuditDailyRollups';
import { AssetsWorkOrdersFailures1733200000000 } from './1733200000000-AssetsWorkOrdersFailures';
import { Webhooks1733210000000 } from './1733210000000-Webhooks';
import { IdentityProviders1733300000000 } from './1733300000000-IdentityProviders';
import { UserContactAndProfile1733400000000 } from './1733400000000-UserContactAndProfile';
import { LoginAddresses1733500000000 } from './1733500000000-LoginAddresses';
import { AuditCompany1733510000000 } from './1733510000000-AuditCompany';
import { OutagesCompliance1734000000000 } from './1734000000000-OutagesCompliance';
import { ContentTypes1734100000000 } from './1734100000000-ContentTypes';
import { AiExchanges1734200000000 } from './1734200000000-AiExchanges';
import { DocumentsOcr1734300000000 } from './1734300000000-DocumentsOcr';
import { ObligationDueOrder1734310000000 } from './1734310000000-ObligationDueOrder';
import { AiExchangeRollups1734400000000 } from './1734400000000-AiExchangeRollups';
import { DocumentSearchNewest1734410000000 } from './1734410000000-DocumentSearchNewest';
import { DocumentPagesProcessed1734500000000 } from './1734500000000-DocumentPagesProcessed';
import { OcrLanguageCodes1734510000000 } from './1734510000000-OcrLanguageCodes';
import { DocumentSearchRank1734511000000 } from './1734511000000-DocumentSearchRank';
import { ContentTypesClientScope1734600000000 } from './1734600000000-ContentTypesClientScope';
import { DocumentSearchLevels1735200000000 } from './1735200000000-DocumentSearchLevels';
import { ReplicaIdentity1736200000000 } from './1736200000000-ReplicaIdentity';
import { BackgroundMigrations1736300000000 } from './1736300000000-BackgroundMigrations';

/** Client migration set, in order: run on every client database (and the master, which is a tenant too). */
export const CLIENT_MIGRATIONS = [
  ClientInit1732200000000,
  Units1732300000000,
  Identity1733000000000,
  AuditTrail1733100000000,
  AuditDailyRollups1733110000000,
  AssetsWorkOrdersFailures1733200000000,
  Webhooks1733210000000,
  IdentityProviders1733300000000,
  UserContactAndProfile1733400000000,
  LoginAddresses1733500000000,
  AuditCompany1733510000000,
  OutagesCompliance1734000000000,
  ContentTypes1734100000000,
  AiExchanges1734200000000,
  DocumentsOcr1734300000000,
  ObligationDueOrder1734310000000,
  AiExchangeRollups1734400000000,
  DocumentSearchNewest1734410000000,
  DocumentPagesProcessed1734500000000,
  OcrLanguageCodes1734510000000,
  DocumentSearchRank1734511000000,
  ContentTypesClientScope1734600000000,
  DocumentSearchLevels1735200000000,
  ReplicaIdentity1736200000000,
  BackgroundMigrations1736300000000,
];
