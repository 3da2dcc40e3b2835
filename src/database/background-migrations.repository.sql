-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- BackgroundMigrationsRepository.hasProgressTable
SELECT to_regclass(quote_ident(current_schema()) || '.background_migrations') IS NOT NULL AS present;

-- BackgroundMigrationsRepository.appliedSchemaMigrations
SELECT name FROM migrations;

-- BackgroundMigrationsRepository.rows
SELECT name, cursor, rows_done::float8 AS "rowsDone", finished_at IS NOT NULL AS finished, error FROM background_migrations ORDER BY name;

-- BackgroundMigrationsRepository.tryLock: not run (takes a session advisory lock)

-- BackgroundMigrationsRepository.unlock: not run (runs over an administrative connection to one schema of a client's database)

-- BackgroundMigrationsRepository.begin: not run (runs over an administrative connection to one schema of a client's database)

-- BackgroundMigrationsRepository.commitBatch: not run (runs over an administrative connection to one schema of a client's database)

-- BackgroundMigrationsRepository.failBatch: not run (runs over an administrative connection to one schema of a client's database)
