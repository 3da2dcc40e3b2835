-- The SQL migration Units1732300000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE TABLE units (
  id serial PRIMARY KEY,
  name varchar(200) NOT NULL,
  code varchar(50),
  type varchar(50),
  capacity_mw numeric(12, 3),
  location varchar(200),
  status varchar(20) NOT NULL DEFAULT 'OPERATIONAL'
    CHECK (status IN ('OPERATIONAL', 'MAINTENANCE', 'OUTAGE', 'DECOMMISSIONED')),
  company_id int REFERENCES companies(id),
  created_by_id int,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX units_company_idx ON units (company_id, id);
CREATE UNIQUE INDEX units_code_uq ON units (company_id, lower(code)) WHERE code IS NOT NULL;
COMMIT;

-- In every sandbox_* schema: the same statements.
