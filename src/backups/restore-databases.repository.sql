-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RestoreDatabasesRepository.create: not run (creates a login role and a database on the client's server)

-- RestoreDatabasesRepository.drop: not run (drops a database (and a login role) on the client's server)

-- RestoreDatabasesRepository.silenceOutbox: not run (empties the outbox of a restored client database, over the server's administrative login)
