-- The SQL migration AuditCompany1733510000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
ALTER TABLE audit_logs ADD COLUMN company_id int;
CREATE INDEX audit_logs_company_idx ON audit_logs (company_id, timestamp DESC, id DESC);
SELECT set_config('audit.retention', 'on', true);
UPDATE audit_logs a SET company_id = u.company_id FROM users u WHERE u.id = a.user_id;
SELECT set_config('audit.retention', 'off', true);
COMMIT;

-- In every sandbox_* schema: the same statements.
