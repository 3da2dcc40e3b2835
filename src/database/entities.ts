import { ApiToken } from '../api-tokens/entities/api-token.entity';
import { AuditLog } from '../audit/entities/audit-log.entity';
import { AuditRetentionPolicy } from '../audit/entities/retention-policy.entity';
import { RefreshToken } from '../auth/entities/refresh-token.entity';
import { Client } from '../platform/entities/client.entity';
import { Sandbox } from '../sandboxes/entities/sandbox.entity';
import { IdentityProvider } from '../sso/entities/identity-provider.entity';
import { SsoIdentity } from '../sso/entities/sso-identity.entity';
import { UserSandbox } from '../sandboxes/entities/user-sandbox.entity';
import { Unit } from '../units/entities/unit.entity';
import { OutageEvent } from '../outages/entities/outage-event.entity';
import { EnvironmentalPermit } from '../compliance/permits/entities/environmental-permit.entity';
import { ComplianceObligation } from '../compliance/obligations/entities/compliance-obligation.entity';
import { ComplianceSubmission } from '../compliance/submissions/entities/compliance-submission.entity';
import { Failure } from '../failures/entities/failure.entity';
import { WorkOrder } from '../work-orders/entities/work-order.entity';
import { Company } from '../users/entities/company.entity';
import { Role } from '../users/entities/role.entity';
import { User } from '../users/entities/user.entity';
import { UploadedFile } from '../files/entities/uploaded-file.entity';
import { DocumentContent } from '../documents/entities/document-content.entity';

/** Entities of every tenant database (clients and master). Add a module's entities here. */
export const CLIENT_ENTITIES: Function[] = [
  Company,
  Role,
  User,
  RefreshToken,
  Sandbox,
  UserSandbox,
  AuditLog,
  AuditRetentionPolicy,
  Unit,
  WorkOrder,
  Failure,
  ApiToken,
  IdentityProvider,
  SsoIdentity,
  OutageEvent,
  EnvironmentalPermit,
  ComplianceObligation,
  ComplianceSubmission,
  UploadedFile,
  DocumentContent,
];

/** Entities that exist only in the master database. */
export const MASTER_ONLY_ENTITIES: Function[] = [Client];
