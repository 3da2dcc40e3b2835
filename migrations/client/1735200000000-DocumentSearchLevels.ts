import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search ranks by word levels: every word of a document gets a level from 1 to 16 from how often it
 * occurs for the document's length (BM25's term-frequency part: tf·2.2 / (tf + 1.2·(0.25 + 0.75·
 * length/250)), scaled), kept as `word#level` in the generated, GIN-indexed column search_levels.
 * A match's score is the sum of its query words' levels, so the best matches are found score by
 * score through the index, without reading every match. Generated from search_vector, so every
 * writer of search_vector (processing, imports, restores) keeps it, and existing rows get it here.
 * The RUM index, which ranked every match by reading them all, is no longer used.
 */
export class DocumentSearchLevels1735200000000 implements MigrationInterface {
  name = 'DocumentSearchLevels1735200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION document_search_levels(vector tsvector) RETURNS tsvector
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT array_to_tsvector(coalesce(array_agg(
                 w.lexeme || '#' || (1 + floor(16 * w.tf / (w.tf + 1.2 * (0.25 + 0.75 * w.length / 250.0))))::int),
                 '{}'))
          FROM (SELECT u.lexeme, coalesce(cardinality(u.positions), 1) AS tf,
                       sum(coalesce(cardinality(u.positions), 1)) OVER () AS length
                  FROM unnest(vector) u
                 WHERE octet_length(u.lexeme) < 2000) w
      $$`);
    await queryRunner.query(`
      ALTER TABLE document_contents ADD COLUMN search_levels tsvector
        GENERATED ALWAYS AS (document_search_levels(search_vector)) STORED`);
    await queryRunner.query(
      `CREATE INDEX document_contents_levels_idx ON document_contents USING gin (search_levels)`,
    );
    await queryRunner.query(`DROP INDEX IF EXISTS document_contents_rank_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE document_contents DROP COLUMN search_levels`);
    await queryRunner.query(`DROP FUNCTION document_search_levels(tsvector)`);
    await queryRunner.query(`
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'rum') THEN
          CREATE INDEX IF NOT EXISTS document_contents_rank_idx ON document_contents
            USING rum (search_vector public.rum_tsvector_ops);
        END IF;
      END $$`);
  }
}
