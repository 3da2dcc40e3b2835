-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- ClientSchemasRepository.sandboxSchemaNames
SELECT schema_name FROM public.sandboxes;

-- ClientSchemasRepository.newestProductionMigration: not run (runs over an administrative connection to a client's database)

-- ClientSchemasRepository.schemaNames: not run (runs over an administrative connection to a client's database)

-- ClientSchemasRepository.revokeAuditWrites: not run (changes rights, inside a schema DDL transaction)

-- ClientSchemasRepository.copyProductionInto: not run (writes a sandbox schema, inside its DDL transaction)
