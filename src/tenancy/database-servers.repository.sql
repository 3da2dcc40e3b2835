-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- DatabaseServersRepository.all
SELECT "DatabaseServer"."id" AS "DatabaseServer_id", "DatabaseServer"."name" AS "DatabaseServer_name", "DatabaseServer"."host" AS "DatabaseServer_host", "DatabaseServer"."port" AS "DatabaseServer_port", "DatabaseServer"."pooler_host" AS "DatabaseServer_pooler_host", "DatabaseServer"."pooler_port" AS "DatabaseServer_pooler_port", "DatabaseServer"."admin_username" AS "DatabaseServer_admin_username", "DatabaseServer"."admin_password" AS "DatabaseServer_admin_password", "DatabaseServer"."system_identifier" AS "DatabaseServer_system_identifier", "DatabaseServer"."cluster_port" AS "DatabaseServer_cluster_port", "DatabaseServer"."logical_replication" AS "DatabaseServer_logical_replication", "DatabaseServer"."max_clients" AS "DatabaseServer_max_clients", "DatabaseServer"."max_connections" AS "DatabaseServer_max_connections", "DatabaseServer"."state" AS "DatabaseServer_state", "DatabaseServer"."created_at" AS "DatabaseServer_created_at", "DatabaseServer"."updated_at" AS "DatabaseServer_updated_at" FROM "database_servers" "DatabaseServer" ORDER BY "DatabaseServer"."id" ASC;

-- DatabaseServersRepository.byId
SELECT "DatabaseServer"."id" AS "DatabaseServer_id", "DatabaseServer"."name" AS "DatabaseServer_name", "DatabaseServer"."host" AS "DatabaseServer_host", "DatabaseServer"."port" AS "DatabaseServer_port", "DatabaseServer"."pooler_host" AS "DatabaseServer_pooler_host", "DatabaseServer"."pooler_port" AS "DatabaseServer_pooler_port", "DatabaseServer"."admin_username" AS "DatabaseServer_admin_username", "DatabaseServer"."admin_password" AS "DatabaseServer_admin_password", "DatabaseServer"."system_identifier" AS "DatabaseServer_system_identifier", "DatabaseServer"."cluster_port" AS "DatabaseServer_cluster_port", "DatabaseServer"."logical_replication" AS "DatabaseServer_logical_replication", "DatabaseServer"."max_clients" AS "DatabaseServer_max_clients", "DatabaseServer"."max_connections" AS "DatabaseServer_max_connections", "DatabaseServer"."state" AS "DatabaseServer_state", "DatabaseServer"."created_at" AS "DatabaseServer_created_at", "DatabaseServer"."updated_at" AS "DatabaseServer_updated_at" FROM "database_servers" "DatabaseServer" WHERE (("DatabaseServer"."id" = $1)) LIMIT 1;

-- DatabaseServersRepository.notFullyIdentified
SELECT "DatabaseServer"."id" AS "DatabaseServer_id", "DatabaseServer"."name" AS "DatabaseServer_name", "DatabaseServer"."host" AS "DatabaseServer_host", "DatabaseServer"."port" AS "DatabaseServer_port", "DatabaseServer"."pooler_host" AS "DatabaseServer_pooler_host", "DatabaseServer"."pooler_port" AS "DatabaseServer_pooler_port", "DatabaseServer"."admin_username" AS "DatabaseServer_admin_username", "DatabaseServer"."admin_password" AS "DatabaseServer_admin_password", "DatabaseServer"."system_identifier" AS "DatabaseServer_system_identifier", "DatabaseServer"."cluster_port" AS "DatabaseServer_cluster_port", "DatabaseServer"."logical_replication" AS "DatabaseServer_logical_replication", "DatabaseServer"."max_clients" AS "DatabaseServer_max_clients", "DatabaseServer"."max_connections" AS "DatabaseServer_max_connections", "DatabaseServer"."state" AS "DatabaseServer_state", "DatabaseServer"."created_at" AS "DatabaseServer_created_at", "DatabaseServer"."updated_at" AS "DatabaseServer_updated_at" FROM "database_servers" "DatabaseServer" WHERE (((("DatabaseServer"."system_identifier" IS NULL))) OR ((("DatabaseServer"."logical_replication" IS NULL)))) ORDER BY "DatabaseServer"."id" ASC;

-- DatabaseServersRepository.setFacts #1
UPDATE "database_servers" SET "system_identifier" = $1, "cluster_port" = $2, "logical_replication" = $3, "updated_at" = CURRENT_TIMESTAMP WHERE "id" IN ($4);

-- DatabaseServersRepository.setFacts #2
UPDATE "database_servers" SET "logical_replication" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE "id" IN ($2);

-- DatabaseServersRepository.withIdentity #1
SELECT "DatabaseServer"."id" AS "DatabaseServer_id", "DatabaseServer"."name" AS "DatabaseServer_name", "DatabaseServer"."host" AS "DatabaseServer_host", "DatabaseServer"."port" AS "DatabaseServer_port", "DatabaseServer"."pooler_host" AS "DatabaseServer_pooler_host", "DatabaseServer"."pooler_port" AS "DatabaseServer_pooler_port", "DatabaseServer"."admin_username" AS "DatabaseServer_admin_username", "DatabaseServer"."admin_password" AS "DatabaseServer_admin_password", "DatabaseServer"."system_identifier" AS "DatabaseServer_system_identifier", "DatabaseServer"."cluster_port" AS "DatabaseServer_cluster_port", "DatabaseServer"."logical_replication" AS "DatabaseServer_logical_replication", "DatabaseServer"."max_clients" AS "DatabaseServer_max_clients", "DatabaseServer"."max_connections" AS "DatabaseServer_max_connections", "DatabaseServer"."state" AS "DatabaseServer_state", "DatabaseServer"."created_at" AS "DatabaseServer_created_at", "DatabaseServer"."updated_at" AS "DatabaseServer_updated_at" FROM "database_servers" "DatabaseServer" WHERE (("DatabaseServer"."system_identifier" = $1) AND ("DatabaseServer"."cluster_port" = $2)) LIMIT 1;

-- DatabaseServersRepository.withIdentity #2
SELECT "DatabaseServer"."id" AS "DatabaseServer_id", "DatabaseServer"."name" AS "DatabaseServer_name", "DatabaseServer"."host" AS "DatabaseServer_host", "DatabaseServer"."port" AS "DatabaseServer_port", "DatabaseServer"."pooler_host" AS "DatabaseServer_pooler_host", "DatabaseServer"."pooler_port" AS "DatabaseServer_pooler_port", "DatabaseServer"."admin_username" AS "DatabaseServer_admin_username", "DatabaseServer"."admin_password" AS "DatabaseServer_admin_password", "DatabaseServer"."system_identifier" AS "DatabaseServer_system_identifier", "DatabaseServer"."cluster_port" AS "DatabaseServer_cluster_port", "DatabaseServer"."logical_replication" AS "DatabaseServer_logical_replication", "DatabaseServer"."max_clients" AS "DatabaseServer_max_clients", "DatabaseServer"."max_connections" AS "DatabaseServer_max_connections", "DatabaseServer"."state" AS "DatabaseServer_state", "DatabaseServer"."created_at" AS "DatabaseServer_created_at", "DatabaseServer"."updated_at" AS "DatabaseServer_updated_at" FROM "database_servers" "DatabaseServer" WHERE (("DatabaseServer"."system_identifier" = $1) AND ("DatabaseServer"."cluster_port" = $2) AND ("DatabaseServer"."id" != $3)) LIMIT 1;

-- DatabaseServersRepository.nameTaken #1
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "database_servers" "s" WHERE lower("s"."name") = lower($1) AND 1=1) LIMIT 1;

-- DatabaseServersRepository.nameTaken #2
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "database_servers" "s" WHERE lower("s"."name") = lower($1) AND "s"."id" <> $2) LIMIT 1;

-- DatabaseServersRepository.addressTaken
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "database_servers" "s" WHERE lower("s"."host") = lower($1) AND "s"."port" = $2) LIMIT 1;

-- DatabaseServersRepository.insert
INSERT INTO "database_servers"("name", "host", "port", "pooler_host", "pooler_port", "admin_username", "admin_password", "system_identifier", "cluster_port", "logical_replication", "max_clients", "max_connections", "state", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at";

-- DatabaseServersRepository.save
SELECT "DatabaseServer"."id" AS "DatabaseServer_id", "DatabaseServer"."name" AS "DatabaseServer_name", "DatabaseServer"."host" AS "DatabaseServer_host", "DatabaseServer"."port" AS "DatabaseServer_port", "DatabaseServer"."pooler_host" AS "DatabaseServer_pooler_host", "DatabaseServer"."pooler_port" AS "DatabaseServer_pooler_port", "DatabaseServer"."admin_username" AS "DatabaseServer_admin_username", "DatabaseServer"."admin_password" AS "DatabaseServer_admin_password", "DatabaseServer"."system_identifier" AS "DatabaseServer_system_identifier", "DatabaseServer"."cluster_port" AS "DatabaseServer_cluster_port", "DatabaseServer"."logical_replication" AS "DatabaseServer_logical_replication", "DatabaseServer"."max_clients" AS "DatabaseServer_max_clients", "DatabaseServer"."max_connections" AS "DatabaseServer_max_connections", "DatabaseServer"."state" AS "DatabaseServer_state", "DatabaseServer"."created_at" AS "DatabaseServer_created_at", "DatabaseServer"."updated_at" AS "DatabaseServer_updated_at" FROM "database_servers" "DatabaseServer" WHERE "DatabaseServer"."id" IN ($1);
UPDATE "database_servers" SET "name" = $1, "host" = $2, "admin_username" = $3, "logical_replication" = $4, "updated_at" = CURRENT_TIMESTAMP WHERE "id" IN ($5) RETURNING "updated_at";

-- DatabaseServersRepository.places
SELECT s.id, count(c.id)::int AS clients
 FROM database_servers s
 LEFT JOIN clients c ON c.status <> 'DELETED' AND (c.server_id = s.id OR c.moving_to_server_id = s.id)
GROUP BY s.id;

-- DatabaseServersRepository.clientDatabases
SELECT server_id AS id, array_agg(database_name ORDER BY id) AS databases
 FROM clients WHERE status <> 'DELETED' AND server_id IS NOT NULL
GROUP BY server_id;

-- DatabaseServersRepository.lockPlacement: not run (waits on an advisory lock held by placements under way)

-- DatabaseServersRepository.lockIdentity: not run (waits on an advisory lock held by registrations under way)

-- DatabaseServersRepository.lockRegistration: not run (waits on an advisory lock held by another replica starting)

-- DatabaseServersRepository.unplacedAddresses
SELECT DISTINCT database_host AS host, database_port AS port FROM clients WHERE server_id IS NULL;

-- DatabaseServersRepository.renameDefault
UPDATE database_servers SET name = $3
WHERE lower(host) = lower($1) AND port = $2 AND lower(name) = lower($1 || ':' || $2)
  AND NOT EXISTS (SELECT 1 FROM database_servers WHERE lower(name) = $3);

-- DatabaseServersRepository.register #1
INSERT INTO database_servers (name, host, port, state)
SELECT CASE WHEN $1::text = 'default'
              AND NOT EXISTS (SELECT 1 FROM database_servers WHERE lower(name) = $1::text)
            THEN $1::text
            ELSE $1::text || '-' || (SELECT coalesce(max(id), 0) + 1 FROM database_servers) END,
       $2, $3, 'active'
ON CONFLICT DO NOTHING;

-- DatabaseServersRepository.register #2
INSERT INTO database_servers (name, host, port, state)
SELECT CASE WHEN $1::text = 'default'
              AND NOT EXISTS (SELECT 1 FROM database_servers WHERE lower(name) = $1::text)
            THEN $1::text
            ELSE $1::text || '-' || (SELECT coalesce(max(id), 0) + 1 FROM database_servers) END,
       $2, $3, 'active'
ON CONFLICT DO NOTHING;

-- DatabaseServersRepository.placeClientsAt
UPDATE clients c SET server_id = s.id FROM database_servers s
WHERE c.server_id IS NULL AND lower(s.host) = lower(c.database_host) AND s.port = c.database_port
  AND lower(s.host) = lower($1) AND s.port = $2;

-- DatabaseServersRepository.seedPooler
WITH seeded AS (
  UPDATE database_servers SET pooler_host = $3, pooler_port = $4
   WHERE lower(host) = lower($1) AND port = $2 AND pooler_host IS NULL RETURNING id)
SELECT count(*)::int AS n FROM seeded;
