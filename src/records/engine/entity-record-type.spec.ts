import 'reflect-metadata';
import { Column, CreateDateColumn, DeleteDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { builtInRecordType } from './entity-record-type';
import { pageRows } from './page';

@Entity('gauges')
class Gauge {
  @PrimaryGeneratedColumn() id: number;
  @Column() title: string;
  @Column({ type: 'varchar' }) status: string;
  @Column({ type: 'numeric', nullable: true }) lostCapacityMw: number | null;
  @Column({ type: 'timestamptz', nullable: true }) plannedStart: Date | null;
  @Column({ type: 'int', nullable: true, select: false }) noticeDays?: number | null;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @DeleteDateColumn({ type: 'timestamptz', select: false }) deletedAt?: Date | null;
}

const GAUGES = builtInRecordType(Gauge, 'gauges', { enums: { status: ['OPEN', 'SHUT'] } });

describe('builtInRecordType', () => {
  it('describes every shown column by JSON name, snake_case column and type', () => {
    expect(GAUGES).toMatchObject({ name: 'gauges', table: 'gauges', companyScoped: true, softDeleted: true });
    expect([...GAUGES.fields.keys()]).toEqual([
      'title',
      'status',
      'lostCapacityMw',
      'plannedStart',
      'companyId',
      'createdAt',
    ]);
    expect(GAUGES.fields.get('title')).toMatchObject({
      column: 'title',
      def: { type: 'string' },
      sqlType: 'varchar',
    });
    expect(GAUGES.fields.get('status')!.def).toEqual({ type: 'enumeration', enum: ['OPEN', 'SHUT'] });
    expect(GAUGES.fields.get('lostCapacityMw')).toMatchObject({
      column: 'lost_capacity_mw',
      sqlType: 'numeric',
    });
    expect(GAUGES.fields.get('plannedStart')!.def.type).toBe('datetime');
  });
});

describe('pageRows of a built-in type', () => {
  const statements = async (order: 'ASC' | 'DESC') => {
    const sent: string[] = [];
    await pageRows(
      async (sql) => {
        sent.push(sql);
        return [];
      },
      {
        type: GAUGES,
        where: [],
        values: [],
        sort: 'plannedStart',
        order,
        pageSize: 10,
        offset: 0,
        after: null,
      },
    );
    return sent;
  };

  it('reads rows without a value first when descending, as PostgreSQL orders them', async () => {
    const [first, second] = await statements('DESC');
    expect(first).toContain('"planned_start" IS NULL');
    expect(second).toContain('"planned_start" IS NOT NULL');
  });

  it('reads them last when ascending', async () => {
    const [first, second] = await statements('ASC');
    expect(first).toContain('"planned_start" IS NOT NULL');
    expect(second).toContain('"planned_start" IS NULL');
  });
});
