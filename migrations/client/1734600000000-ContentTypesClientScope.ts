import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom tables gained `options.companyScoped`, true by default for new types. Types that exist
 * keep the scope they had (their records belong to the client): their stored definitions say so
 * explicitly, in every schema.
 */
export class ContentTypesClientScope1734600000000 implements MigrationInterface {
  name = 'ContentTypesClientScope1734600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE content_type_definitions
         SET definition = jsonb_set(definition, '{options}',
               COALESCE(definition->'options', '{}'::jsonb) || '{"companyScoped": false}'::jsonb)
       WHERE NOT COALESCE(definition->'options', '{}'::jsonb) ? 'companyScoped'
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE content_type_definitions SET definition = definition #- '{options,companyScoped}'
       WHERE definition->'options'->'companyScoped' = 'false'::jsonb
    `);
  }
}
