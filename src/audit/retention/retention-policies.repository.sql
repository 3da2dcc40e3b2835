-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RetentionPoliciesRepository.list
SELECT "AuditRetentionPolicy"."entity_type" AS "AuditRetentionPolicy_entity_type", "AuditRetentionPolicy"."retention_days" AS "AuditRetentionPolicy_retention_days", "AuditRetentionPolicy"."updated_by_id" AS "AuditRetentionPolicy_updated_by_id", "AuditRetentionPolicy"."created_at" AS "AuditRetentionPolicy_created_at", "AuditRetentionPolicy"."updated_at" AS "AuditRetentionPolicy_updated_at" FROM "audit_retention_policies" "AuditRetentionPolicy" ORDER BY "AuditRetentionPolicy"."entity_type" ASC;

-- RetentionPoliciesRepository.lock
SELECT "AuditRetentionPolicy"."entity_type" AS "AuditRetentionPolicy_entity_type", "AuditRetentionPolicy"."retention_days" AS "AuditRetentionPolicy_retention_days", "AuditRetentionPolicy"."updated_by_id" AS "AuditRetentionPolicy_updated_by_id", "AuditRetentionPolicy"."created_at" AS "AuditRetentionPolicy_created_at", "AuditRetentionPolicy"."updated_at" AS "AuditRetentionPolicy_updated_at" FROM "audit_retention_policies" "AuditRetentionPolicy" WHERE (("AuditRetentionPolicy"."entity_type" = $1)) LIMIT 1 FOR UPDATE;

-- RetentionPoliciesRepository.save
SELECT "AuditRetentionPolicy"."entity_type" AS "AuditRetentionPolicy_entity_type", "AuditRetentionPolicy"."retention_days" AS "AuditRetentionPolicy_retention_days", "AuditRetentionPolicy"."updated_by_id" AS "AuditRetentionPolicy_updated_by_id", "AuditRetentionPolicy"."created_at" AS "AuditRetentionPolicy_created_at", "AuditRetentionPolicy"."updated_at" AS "AuditRetentionPolicy_updated_at" FROM "audit_retention_policies" "AuditRetentionPolicy" WHERE "AuditRetentionPolicy"."entity_type" IN ($1);
INSERT INTO "audit_retention_policies"("entity_type", "retention_days", "updated_by_id", "created_at", "updated_at") VALUES ($1, $2, $3, DEFAULT, DEFAULT) RETURNING "created_at", "updated_at";

-- RetentionPoliciesRepository.remove
DELETE FROM "audit_retention_policies" WHERE "entity_type" = $1;
