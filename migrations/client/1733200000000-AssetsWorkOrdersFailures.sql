-- The SQL migration AssetsWorkOrdersFailures1733200000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE TABLE work_orders (
  id serial PRIMARY KEY,
  title varchar(200) NOT NULL,
  description varchar(2000),
  unit_id int NOT NULL REFERENCES units(id) ON DELETE RESTRICT,
  status varchar(20) NOT NULL DEFAULT 'OPEN'
    CHECK (status IN ('OPEN', 'IN_PROGRESS', 'ON_HOLD', 'COMPLETED', 'CANCELLED')),
  priority varchar(20) NOT NULL DEFAULT 'MEDIUM' CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  due_date timestamptz,
  completed_at timestamptz,
  company_id int REFERENCES companies(id),
  created_by_id int,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_orders_company_idx ON work_orders (company_id, id);
CREATE INDEX work_orders_unit_idx ON work_orders (unit_id);
CREATE TABLE failures (
  id serial PRIMARY KEY,
  title varchar(200) NOT NULL,
  description varchar(2000),
  unit_id int NOT NULL REFERENCES units(id) ON DELETE RESTRICT,
  work_order_id int REFERENCES work_orders(id) ON DELETE SET NULL,
  severity varchar(20) NOT NULL DEFAULT 'MEDIUM' CHECK (severity IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  status varchar(20) NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'INVESTIGATING', 'RESOLVED')),
  occurred_at timestamptz,
  resolved_at timestamptz,
  company_id int REFERENCES companies(id),
  created_by_id int,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX failures_company_idx ON failures (company_id, id);
CREATE INDEX failures_unit_idx ON failures (unit_id);
COMMIT;

-- In every sandbox_* schema: the same statements.
