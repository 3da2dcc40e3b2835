-- The SQL migration DocumentSearchRank1734511000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'rum') THEN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'rum') THEN
      RETURN;
    END IF;
    BEGIN
      CREATE EXTENSION rum SCHEMA public;
    EXCEPTION WHEN insufficient_privilege OR feature_not_supported OR undefined_file THEN
      RAISE NOTICE 'rum not created: %', SQLERRM;
      RETURN;
    END;
  END IF;
  CREATE INDEX IF NOT EXISTS document_contents_rank_idx ON document_contents
    USING rum (search_vector public.rum_tsvector_ops);
END $$;
COMMIT;

-- In every sandbox_* schema: the same statements.
