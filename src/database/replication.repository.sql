-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- ReplicationRepository.tablesWithoutReplicaIdentity: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.tables: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.createPublication: not run (creates a publication)

-- ReplicationRepository.dropPublication: not run (drops a publication)

-- ReplicationRepository.dropIdleSlots: not run (drops replication slots)

-- ReplicationRepository.createSubscription: not run (creates a subscription)

-- ReplicationRepository.dropSubscription: not run (drops a subscription)

-- ReplicationRepository.subscriptionTables: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.lagBytes: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.currentLsn: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.confirmedPast: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.installWriteGuard: not run (installs triggers on every table)

-- ReplicationRepository.prepareWriteGuard: not run (installs triggers on every table)

-- ReplicationRepository.armWriteGuard: not run (replaces a function)

-- ReplicationRepository.writersInFlight: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.removeWriteGuard: not run (drops triggers on every table)

-- ReplicationRepository.vacuumAnalyze: not run (vacuums a database)

-- ReplicationRepository.sequences: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.setSequences: not run (sets sequences)

-- ReplicationRepository.rowCounts: not run (runs over an administrative connection to a client's database server)

-- ReplicationRepository.closeToRole: not run (changes the rights on a database and ends sessions)
