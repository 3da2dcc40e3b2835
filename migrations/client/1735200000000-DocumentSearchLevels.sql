-- The SQL migration DocumentSearchLevels1735200000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE FUNCTION document_search_levels(vector tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(coalesce(array_agg(
           w.lexeme || '#' || (1 + floor(16 * w.tf / (w.tf + 1.2 * (0.25 + 0.75 * w.length / 250.0))))::int),
           '{}'))
    FROM (SELECT u.lexeme, coalesce(cardinality(u.positions), 1) AS tf,
                 sum(coalesce(cardinality(u.positions), 1)) OVER () AS length
            FROM unnest(vector) u
           WHERE octet_length(u.lexeme) < 2000) w
$$;
ALTER TABLE document_contents ADD COLUMN search_levels tsvector
  GENERATED ALWAYS AS (document_search_levels(search_vector)) STORED;
CREATE INDEX document_contents_levels_idx ON document_contents USING gin (search_levels);
DROP INDEX IF EXISTS document_contents_rank_idx;
COMMIT;

-- In every sandbox_* schema: the same statements.
