import { MigrationInterface, QueryRunner } from 'typeorm';

/** Units are operational data: created in production and in every sandbox schema. */
export class Units1732300000000 implements MigrationInterface {
  name = 'Units1732300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
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
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE units');
  }
}
