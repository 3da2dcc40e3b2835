-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- AuditRetentionRepository.defaultPolicyDays: not run (runs over the administrative connection of a client database (no tenant manager))

-- AuditRetentionRepository.schemas: not run (runs over the administrative connection of a client database (no tenant manager))

-- AuditRetentionRepository.deleteBatch: not run (runs over the administrative connection of a client database (no tenant manager))
