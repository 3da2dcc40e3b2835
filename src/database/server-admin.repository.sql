-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- ServerAdminRepository.ping
SELECT 1;

-- ServerAdminRepository.identity: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.identityAt: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.logicalReplication: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.factsAt: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.usageAt: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.databaseExists: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.roleExists: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.createLoginRole: not run (creates a login role)

-- ServerAdminRepository.ensureLoginRole: not run (creates or alters a login role)

-- ServerAdminRepository.createDatabase: not run (creates a database)

-- ServerAdminRepository.restrictDatabaseTo: not run (changes the rights on a database)

-- ServerAdminRepository.restrictDatabaseToCurrentUser: not run (changes the rights on the master database)

-- ServerAdminRepository.dropDatabase: not run (drops a database)

-- ServerAdminRepository.dropRole: not run (drops a login role)

-- ServerAdminRepository.makeReadOnly: not run (makes a database read-only)

-- ServerAdminRepository.resetReadOnly: not run (alters a database)

-- ServerAdminRepository.sessionsOpenedBefore: not run (runs over an administrative connection to a client's database server)

-- ServerAdminRepository.endSessions: not run (ends sessions)

-- ServerAdminRepository.endAllSessions: not run (ends sessions)

-- ServerAdminRepository.lockSession: not run (waits on an advisory lock)

-- ServerAdminRepository.unlockSession: not run (releases an advisory lock of its connection)

-- ServerAdminRepository.tryLockSession: not run (takes an advisory lock held until its connection ends)

-- ServerAdminRepository.begin: not run (opens a transaction the caller ends)

-- ServerAdminRepository.rollback: not run (ends the transaction of its connection)

-- ServerAdminRepository.tryLockTransaction: not run (takes an advisory lock held until its transaction ends)
