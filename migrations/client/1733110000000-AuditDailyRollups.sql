-- The SQL migration AuditDailyRollups1733110000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE TABLE audit_daily_rollups (
  day date PRIMARY KEY,
  counts jsonb NOT NULL,
  user_ids int[] NOT NULL,
  ip_addresses text[] NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION audit_rollups_forget_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM %I.audit_daily_rollups WHERE day = $1', TG_TABLE_SCHEMA)
    USING (NEW.timestamp AT TIME ZONE 'UTC')::date;
  RETURN NULL;
END $$;

CREATE FUNCTION audit_rollups_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE days date[];
BEGIN
  SELECT array_agg(DISTINCT (o.timestamp AT TIME ZONE 'UTC')::date) INTO days FROM old_rows o;
  IF days IS NOT NULL THEN
    EXECUTE format('DELETE FROM %I.audit_daily_rollups WHERE day = ANY($1)', TG_TABLE_SCHEMA) USING days;
  END IF;
  RETURN NULL;
END $$;

-- Row-level with a WHEN clause: an entry stamped now (every normal write) never calls the function.
CREATE TRIGGER audit_rollups_after_insert AFTER INSERT ON audit_logs FOR EACH ROW
  WHEN (NEW.timestamp < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
  EXECUTE FUNCTION audit_rollups_forget_inserted();
CREATE TRIGGER audit_rollups_after_delete AFTER DELETE ON audit_logs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_rollups_forget_deleted();
COMMIT;

-- In every sandbox_* schema: the same statements.
