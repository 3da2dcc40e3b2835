-- The SQL migration ReplicaIdentity1736200000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
ALTER TABLE ai_exchange_hours REPLICA IDENTITY FULL;
ALTER TABLE ai_exchange_days REPLICA IDENTITY FULL;
ALTER TABLE ai_exchange_user_hours REPLICA IDENTITY FULL;
ALTER TABLE ai_exchange_latency_days REPLICA IDENTITY FULL;
ALTER TABLE ai_exchange_latency_hours REPLICA IDENTITY FULL;
COMMIT;

-- In every sandbox_* schema: the same statements.
