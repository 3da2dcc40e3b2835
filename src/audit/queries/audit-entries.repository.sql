-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- AuditEntriesRepository.page #1
SELECT id, action, entity_type, entity_id, user_id, username, timestamp, ip_address, user_agent, message, changes, metadata FROM audit_logs WHERE TRUE
ORDER BY timestamp DESC, id DESC LIMIT $1 OFFSET $2;

-- AuditEntriesRepository.page #2
SELECT id, action, entity_type, entity_id, user_id, username, timestamp, ip_address, user_agent, message, changes, metadata FROM audit_logs WHERE ($1::int IS NULL OR company_id = $1::int) AND entity_type = $2 AND entity_id = $3
ORDER BY timestamp DESC, id DESC LIMIT $4 OFFSET $5;

-- AuditEntriesRepository.countUpTo #1
SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_logs WHERE ($1::int IS NULL OR company_id = $1::int) AND entity_type = $2 AND entity_id = $3 LIMIT 10001) x;

-- AuditEntriesRepository.countUpTo #2
SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_logs WHERE TRUE) x;

-- AuditEntriesRepository.estimate
EXPLAIN (FORMAT JSON) SELECT 1 FROM audit_logs WHERE ($1::int IS NULL OR company_id = $1::int) AND entity_type = $2 AND entity_id = $3;

-- AuditEntriesRepository.openExport
DECLARE audit_export NO SCROLL CURSOR FOR
SELECT id, action, entity_type, entity_id, user_id, username, timestamp, ip_address, user_agent, message, changes, metadata FROM audit_logs WHERE ($1::int IS NULL OR company_id = $1::int) AND entity_type = $2 AND entity_id = $3 ORDER BY timestamp DESC, id DESC;

-- AuditEntriesRepository.fetchExport: not run (reads the cursor openExport declares in the same transaction)

-- AuditEntriesRepository.closeExport: not run (closes the cursor openExport declares in the same transaction)
