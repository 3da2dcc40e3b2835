-- The SQL migration OutagesCompliance1734000000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE SEQUENCE outage_number_seq;
CREATE TABLE outage_events (
  id serial PRIMARY KEY,
  outage_number varchar(50) NOT NULL UNIQUE
    DEFAULT 'OUT-' || lpad(nextval('outage_number_seq')::text, 6, '0'),
  title varchar(255) NOT NULL,
  description text,
  outage_type varchar(20) NOT NULL CHECK (outage_type IN ('PLANNED', 'FORCED', 'MAINTENANCE', 'EMERGENCY')),
  status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'COMPLETED', 'CANCELLED')),
  unit_id int REFERENCES units(id) ON DELETE SET NULL,
  work_order_id int REFERENCES work_orders(id) ON DELETE SET NULL,
  failure_id int REFERENCES failures(id) ON DELETE SET NULL,
  planned_start timestamptz,
  planned_end timestamptz,
  actual_start timestamptz,
  actual_end timestamptz,
  capacity_mw numeric(12, 3),
  lost_capacity_mw numeric(12, 3),
  remaining_capacity_mw numeric(12, 3),
  estimated_cost numeric(16, 2),
  actual_cost numeric(16, 2),
  lost_revenue numeric(16, 2),
  approval_status varchar(20) NOT NULL DEFAULT 'PENDING'
    CHECK (approval_status IN ('PENDING', 'APPROVED', 'REJECTED')),
  requested_by_id int REFERENCES users(id) ON DELETE SET NULL,
  approved_by_id int REFERENCES users(id) ON DELETE SET NULL,
  approval_date timestamptz,
  approval_notes text,
  root_cause text,
  corrective_action text,
  completion_notes text,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
ALTER SEQUENCE outage_number_seq OWNED BY outage_events.outage_number;
CREATE INDEX outage_events_company_idx ON outage_events (company_id, id) WHERE deleted_at IS NULL;
CREATE INDEX outage_events_planned_start_idx ON outage_events (company_id, planned_start, id)
  WHERE deleted_at IS NULL;
CREATE INDEX outage_events_active_idx ON outage_events (company_id, actual_start DESC NULLS LAST, id DESC)
  WHERE status = 'ACTIVE' AND deleted_at IS NULL;
CREATE INDEX outage_events_unit_idx ON outage_events (unit_id, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;

CREATE TABLE environmental_permits (
  id serial PRIMARY KEY,
  permit_number varchar(100) NOT NULL UNIQUE,
  title varchar(255) NOT NULL,
  description text,
  permit_type varchar(30) NOT NULL
    CHECK (permit_type IN ('AIR', 'WATER', 'WASTE', 'NOISE', 'LAND_USE', 'ENVIRONMENTAL_IMPACT')),
  status varchar(20) NOT NULL DEFAULT 'ACTIVE'
    CHECK (status IN ('ACTIVE', 'EXPIRED', 'SUSPENDED', 'REVOKED', 'PENDING_RENEWAL')),
  issuing_authority varchar(255),
  authority_contact varchar(255),
  authority_email varchar(255),
  authority_phone varchar(50),
  issue_date timestamptz,
  expiry_date timestamptz,
  renewal_date timestamptz,
  unit_id int REFERENCES units(id) ON DELETE SET NULL,
  conditions text,
  restrictions text,
  emission_limits text,
  permit_fee numeric(16, 2),
  annual_fee numeric(16, 2),
  notes text,
  expiry_notice_days int,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX environmental_permits_company_idx ON environmental_permits (company_id, id);
CREATE INDEX environmental_permits_expiry_idx ON environmental_permits (company_id, expiry_date)
  WHERE status = 'ACTIVE';
CREATE INDEX environmental_permits_status_idx ON environmental_permits (company_id, status, id);

CREATE TABLE compliance_obligations (
  id serial PRIMARY KEY,
  permit_id int NOT NULL REFERENCES environmental_permits(id) ON DELETE RESTRICT,
  title varchar(255) NOT NULL,
  description text,
  obligation_type varchar(20) NOT NULL
    CHECK (obligation_type IN ('REPORTING', 'MONITORING', 'INSPECTION', 'TESTING', 'FILING')),
  status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'COMPLETED', 'OVERDUE', 'WAIVED')),
  frequency varchar(20) NOT NULL
    CHECK (frequency IN ('DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'ONE_TIME')),
  next_due_date timestamptz,
  last_completed_date timestamptz,
  responsible_user_id int REFERENCES users(id) ON DELETE SET NULL,
  requirements text,
  submission_format varchar(255),
  notes text,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compliance_obligations_company_idx ON compliance_obligations (company_id, id);
CREATE INDEX compliance_obligations_due_idx ON compliance_obligations (company_id, next_due_date)
  WHERE status IN ('ACTIVE', 'OVERDUE');
CREATE INDEX compliance_obligations_permit_idx ON compliance_obligations (permit_id, id);

CREATE TABLE compliance_submissions (
  id serial PRIMARY KEY,
  obligation_id int NOT NULL REFERENCES compliance_obligations(id) ON DELETE RESTRICT,
  submission_reference varchar(100),
  title varchar(255) NOT NULL,
  description text,
  status varchar(20) NOT NULL DEFAULT 'DRAFT' CHECK (status IN
    ('DRAFT', 'SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'REJECTED', 'REVISION_REQUIRED')),
  period_start timestamptz,
  period_end timestamptz,
  submitted_date timestamptz,
  review_date timestamptz,
  approval_date timestamptz,
  submitted_by_id int REFERENCES users(id) ON DELETE SET NULL,
  reviewed_by_id int REFERENCES users(id) ON DELETE SET NULL,
  submission_data text,
  review_notes text,
  rejection_reason text,
  notes text,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compliance_submissions_company_idx ON compliance_submissions (company_id, id);
CREATE INDEX compliance_submissions_obligation_idx ON compliance_submissions (obligation_id, id);
SELECT current_schema() AS schema;
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
CREATE SEQUENCE outage_number_seq;
CREATE TABLE outage_events (
  id serial PRIMARY KEY,
  outage_number varchar(50) NOT NULL UNIQUE
    DEFAULT 'OUT-' || lpad(nextval('outage_number_seq')::text, 6, '0'),
  title varchar(255) NOT NULL,
  description text,
  outage_type varchar(20) NOT NULL CHECK (outage_type IN ('PLANNED', 'FORCED', 'MAINTENANCE', 'EMERGENCY')),
  status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'COMPLETED', 'CANCELLED')),
  unit_id int REFERENCES units(id) ON DELETE SET NULL,
  work_order_id int REFERENCES work_orders(id) ON DELETE SET NULL,
  failure_id int REFERENCES failures(id) ON DELETE SET NULL,
  planned_start timestamptz,
  planned_end timestamptz,
  actual_start timestamptz,
  actual_end timestamptz,
  capacity_mw numeric(12, 3),
  lost_capacity_mw numeric(12, 3),
  remaining_capacity_mw numeric(12, 3),
  estimated_cost numeric(16, 2),
  actual_cost numeric(16, 2),
  lost_revenue numeric(16, 2),
  approval_status varchar(20) NOT NULL DEFAULT 'PENDING'
    CHECK (approval_status IN ('PENDING', 'APPROVED', 'REJECTED')),
  requested_by_id int REFERENCES users(id) ON DELETE SET NULL,
  approved_by_id int REFERENCES users(id) ON DELETE SET NULL,
  approval_date timestamptz,
  approval_notes text,
  root_cause text,
  corrective_action text,
  completion_notes text,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
ALTER SEQUENCE outage_number_seq OWNED BY outage_events.outage_number;
CREATE INDEX outage_events_company_idx ON outage_events (company_id, id) WHERE deleted_at IS NULL;
CREATE INDEX outage_events_planned_start_idx ON outage_events (company_id, planned_start, id)
  WHERE deleted_at IS NULL;
CREATE INDEX outage_events_active_idx ON outage_events (company_id, actual_start DESC NULLS LAST, id DESC)
  WHERE status = 'ACTIVE' AND deleted_at IS NULL;
CREATE INDEX outage_events_unit_idx ON outage_events (unit_id, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;

CREATE TABLE environmental_permits (
  id serial PRIMARY KEY,
  permit_number varchar(100) NOT NULL UNIQUE,
  title varchar(255) NOT NULL,
  description text,
  permit_type varchar(30) NOT NULL
    CHECK (permit_type IN ('AIR', 'WATER', 'WASTE', 'NOISE', 'LAND_USE', 'ENVIRONMENTAL_IMPACT')),
  status varchar(20) NOT NULL DEFAULT 'ACTIVE'
    CHECK (status IN ('ACTIVE', 'EXPIRED', 'SUSPENDED', 'REVOKED', 'PENDING_RENEWAL')),
  issuing_authority varchar(255),
  authority_contact varchar(255),
  authority_email varchar(255),
  authority_phone varchar(50),
  issue_date timestamptz,
  expiry_date timestamptz,
  renewal_date timestamptz,
  unit_id int REFERENCES units(id) ON DELETE SET NULL,
  conditions text,
  restrictions text,
  emission_limits text,
  permit_fee numeric(16, 2),
  annual_fee numeric(16, 2),
  notes text,
  expiry_notice_days int,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX environmental_permits_company_idx ON environmental_permits (company_id, id);
CREATE INDEX environmental_permits_expiry_idx ON environmental_permits (company_id, expiry_date)
  WHERE status = 'ACTIVE';
CREATE INDEX environmental_permits_status_idx ON environmental_permits (company_id, status, id);

CREATE TABLE compliance_obligations (
  id serial PRIMARY KEY,
  permit_id int NOT NULL REFERENCES environmental_permits(id) ON DELETE RESTRICT,
  title varchar(255) NOT NULL,
  description text,
  obligation_type varchar(20) NOT NULL
    CHECK (obligation_type IN ('REPORTING', 'MONITORING', 'INSPECTION', 'TESTING', 'FILING')),
  status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'COMPLETED', 'OVERDUE', 'WAIVED')),
  frequency varchar(20) NOT NULL
    CHECK (frequency IN ('DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'ONE_TIME')),
  next_due_date timestamptz,
  last_completed_date timestamptz,
  responsible_user_id int REFERENCES users(id) ON DELETE SET NULL,
  requirements text,
  submission_format varchar(255),
  notes text,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compliance_obligations_company_idx ON compliance_obligations (company_id, id);
CREATE INDEX compliance_obligations_due_idx ON compliance_obligations (company_id, next_due_date)
  WHERE status IN ('ACTIVE', 'OVERDUE');
CREATE INDEX compliance_obligations_permit_idx ON compliance_obligations (permit_id, id);

CREATE TABLE compliance_submissions (
  id serial PRIMARY KEY,
  obligation_id int NOT NULL REFERENCES compliance_obligations(id) ON DELETE RESTRICT,
  submission_reference varchar(100),
  title varchar(255) NOT NULL,
  description text,
  status varchar(20) NOT NULL DEFAULT 'DRAFT' CHECK (status IN
    ('DRAFT', 'SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'REJECTED', 'REVISION_REQUIRED')),
  period_start timestamptz,
  period_end timestamptz,
  submitted_date timestamptz,
  review_date timestamptz,
  approval_date timestamptz,
  submitted_by_id int REFERENCES users(id) ON DELETE SET NULL,
  reviewed_by_id int REFERENCES users(id) ON DELETE SET NULL,
  submission_data text,
  review_notes text,
  rejection_reason text,
  notes text,
  company_id int REFERENCES companies(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compliance_submissions_company_idx ON compliance_submissions (company_id, id);
CREATE INDEX compliance_submissions_obligation_idx ON compliance_submissions (obligation_id, id);
SELECT current_schema() AS schema;
SELECT to_regclass('public.outage_number_seq') IS NOT NULL AS found;
SELECT setval('outage_number_seq', last_value, is_called) FROM public.outage_number_seq;
COMMIT;
