-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- AuditReportsRepository.periodCounts #1
SELECT
      CASE WHEN GROUPING(action) = 0 THEN 'action' WHEN GROUPING(entity_type) = 0 THEN 'type'
           WHEN GROUPING(summary_kind) = 0 THEN 'kind' WHEN GROUPING(user_id) = 0 THEN 'user'
           ELSE 'ip' END AS dim,
      coalesce(action, entity_type, summary_kind::text, user_id::text, ip_address) AS key,
      count(*) AS n
 FROM audit_logs WHERE timestamp >= $1 AND timestamp < $2
GROUP BY GROUPING SETS ((action), (entity_type), (summary_kind), (user_id), (ip_address));

-- AuditReportsRepository.periodCounts #2
SELECT
      CASE WHEN GROUPING(action) = 0 THEN 'action' WHEN GROUPING(entity_type) = 0 THEN 'type'
           WHEN GROUPING(summary_kind) = 0 THEN 'kind' WHEN GROUPING(user_id) = 0 THEN 'user'
           ELSE 'ip' END AS dim,
      coalesce(action, entity_type, summary_kind::text, user_id::text, ip_address) AS key,
      count(*) AS n
 FROM audit_logs WHERE timestamp >= $1 AND timestamp <= $2
GROUP BY GROUPING SETS ((action), (entity_type), (summary_kind), (user_id), (ip_address));

-- AuditReportsRepository.dailyCounts
SELECT to_char((timestamp AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day,
      CASE WHEN GROUPING(action) = 0 THEN 'action' WHEN GROUPING(entity_type) = 0 THEN 'type'
           WHEN GROUPING(summary_kind) = 0 THEN 'kind' WHEN GROUPING(user_id) = 0 THEN 'user'
           ELSE 'ip' END AS dim,
      coalesce(action, entity_type, summary_kind::text, user_id::text, ip_address) AS key,
      count(*) AS n
 FROM audit_logs WHERE timestamp >= $1 AND timestamp < $2
GROUP BY GROUPING SETS (((timestamp AT TIME ZONE 'UTC')::date, action), ((timestamp AT TIME ZONE 'UTC')::date, entity_type), ((timestamp AT TIME ZONE 'UTC')::date, summary_kind), ((timestamp AT TIME ZONE 'UTC')::date, user_id), ((timestamp AT TIME ZONE 'UTC')::date, ip_address));

-- AuditReportsRepository.rollups
SELECT to_char(day, 'YYYY-MM-DD') AS day, counts, user_ids, ip_addresses
FROM audit_daily_rollups WHERE day >= $1::date AND day < $2::date;

-- AuditReportsRepository.storeRollup
INSERT INTO audit_daily_rollups (day, counts, user_ids, ip_addresses) VALUES ($1::date, $2, $3, $4)
ON CONFLICT (day) DO NOTHING;

-- AuditReportsRepository.userActivity
WITH scoped AS MATERIALIZED (
  SELECT action, entity_type, ip_address, timestamp, username FROM audit_logs WHERE user_id = $3 AND timestamp >= $1 AND timestamp < $2
)
SELECT (SELECT count(*) FROM scoped) AS total,
       (SELECT coalesce(jsonb_object_agg(action, n), '{}') FROM
          (SELECT action, count(*) AS n FROM scoped GROUP BY action) a) AS by_action,
       (SELECT coalesce(jsonb_object_agg(entity_type, n), '{}') FROM
          (SELECT entity_type, count(*) AS n FROM scoped WHERE entity_type IS NOT NULL GROUP BY entity_type) t) AS by_type,
       (SELECT coalesce(array_agg(DISTINCT ip_address ORDER BY ip_address), '{}') FROM scoped WHERE ip_address IS NOT NULL) AS ips,
       (SELECT max(timestamp) FROM scoped) AS last_activity,
       (SELECT username FROM scoped WHERE username IS NOT NULL ORDER BY timestamp DESC LIMIT 1) AS last_username;

-- AuditReportsRepository.sessionEvents
SELECT action, timestamp,
     (metadata->>'success' = 'false' OR metadata->>'event' = 'LOGIN_FAILED') IS TRUE AS failed
FROM audit_logs WHERE user_id = $3 AND timestamp >= $1 AND timestamp < $2 AND action IN ('LOGIN', 'LOGOUT') ORDER BY timestamp, id;

-- AuditReportsRepository.username
SELECT coalesce(username, email) AS username FROM users WHERE id = $1;

-- AuditReportsRepository.hasEntriesOf
SELECT 1 FROM audit_logs WHERE user_id = $1 LIMIT 1;

-- AuditReportsRepository.entityAccess
WITH scoped AS MATERIALIZED (
  SELECT id, action, timestamp, user_id, username FROM audit_logs WHERE entity_type = $1 AND entity_id = $2 AND ($3::int IS NULL OR company_id = $3::int)
), created AS (
  SELECT timestamp, username FROM scoped WHERE action = 'CREATE' ORDER BY timestamp, id LIMIT 1
), modified AS (
  SELECT timestamp, username FROM scoped WHERE action IN ('CREATE', 'UPDATE', 'DELETE')
   ORDER BY timestamp DESC, id DESC LIMIT 1
)
SELECT (SELECT timestamp FROM created) AS created_at, (SELECT username FROM created) AS created_by,
       (SELECT timestamp FROM modified) AS last_modified, (SELECT username FROM modified) AS last_modified_by,
       (SELECT count(*) FROM scoped) AS total,
       (SELECT count(DISTINCT coalesce(user_id::text, username)) FROM scoped) AS users,
       (SELECT jsonb_agg(jsonb_build_object('username', u, 'accessCount', n, 'lastAccess', last) ORDER BY n DESC, u)
          FROM (SELECT coalesce(username, 'unknown') AS u, count(*) AS n, max(timestamp) AS last
                  FROM scoped GROUP BY 1) g) AS by_user;

-- AuditReportsRepository.changeHistory
SELECT a.timestamp, a.username AS user, a.action, c.key AS field,
      c.value->'old' AS old_value, c.value->'new' AS new_value
 FROM (SELECT id, timestamp, username, action, changes FROM audit_logs
        WHERE entity_type = $1 AND entity_id = $2 AND ($3::int IS NULL OR company_id = $3::int) AND action IN ('CREATE', 'UPDATE', 'DELETE')
        ORDER BY timestamp DESC, id DESC LIMIT 500) a
 LEFT JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(a.changes) = 'object' THEN a.changes ELSE '{}' END) c
   ON true
ORDER BY a.timestamp DESC, a.id DESC, c.key;

-- AuditReportsRepository.retentionByType
WITH d AS (SELECT coalesce((SELECT retention_days FROM audit_retention_policies WHERE entity_type = $2), $1)::int AS days)
SELECT a.entity_type, coalesce(p.retention_days, d.days) AS retention_days, p.entity_type IS NOT NULL AS has_policy,
       min(a.timestamp) AS oldest, count(*) AS total,
       count(*) FILTER (WHERE a.timestamp < now() - make_interval(days => coalesce(p.retention_days, d.days))) AS eligible
  FROM audit_logs a CROSS JOIN d LEFT JOIN audit_retention_policies p ON p.entity_type = a.entity_type
 GROUP BY a.entity_type, p.entity_type, p.retention_days, d.days
 ORDER BY a.entity_type NULLS FIRST;

-- AuditReportsRepository.policyDays
SELECT entity_type, retention_days FROM audit_retention_policies ORDER BY entity_type;

-- AuditReportsRepository.storage
WITH s AS (
  SELECT pg_total_relation_size('audit_logs') AS audit,
         pg_total_relation_size('audit_retention_policies') AS policies,
         (SELECT coalesce(sum(pg_column_size(l.*)), 0) FROM audit_logs l WHERE action IN ('LOGIN', 'LOGOUT')) AS logins)
SELECT pg_size_pretty(audit) AS audit_logs, pg_size_pretty(logins::bigint) AS login_history,
       pg_size_pretty(audit + policies) AS total, audit AS audit_bytes FROM s;
