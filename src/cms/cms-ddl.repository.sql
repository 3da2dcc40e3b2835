-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- CmsDdlRepository.on: not run (DDL: runs inside a schema DDL transaction under its advisory lock (SchemaDdl))

-- CmsDdlRepository.definitions
SELECT definition FROM content_type_definitions ORDER BY collection_name;
