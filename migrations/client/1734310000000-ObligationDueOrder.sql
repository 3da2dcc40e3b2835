-- The SQL migration ObligationDueOrder1734310000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE INDEX compliance_obligations_due_order_idx ON compliance_obligations (company_id, next_due_date, id);
COMMIT;

-- In every sandbox_* schema: the same statements.
