import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Paged } from '../common/pagination/pagination';
import { SqlExample } from '../database/sql-example';
import { recordRows } from '../records/records.repository';
import { ComplianceObligation } from './obligations/entities/compliance-obligation.entity';
import { EnvironmentalPermit } from './permits/entities/environmental-permit.entity';

/** Days before expiry at which `permit.expiring` goes out, each once per expiry date. */
export const EXPIRY_NOTICE_DAYS = [90, 30, 7] as const;
/** Rows one transaction of the daily jobs locks and handles. */
export const DAILY_BATCH = 500;

/** SQL: the smallest threshold a permit's expiry date ($1 = now) has reached (7, 30 or 90). */
const NOTICE_DUE = `CASE ${[...EXPIRY_NOTICE_DAYS]
  .reverse()
  .map((days) => `WHEN expiry_date <= $1::timestamptz + interval '${days} days' THEN ${days}`)
  .join(' ')} END`;

const NOW = new Date('2026-11-24T06:00:00Z');
const IN_90_DAYS = new Date('2027-02-22T06:00:00Z');

type Page = { page: number; pageSize: number };
const PAGE: Page = { page: 1, pageSize: 25 };

/** An ACTIVE permit that reached an expiry notice threshold, and the threshold (days). */
export interface NoticeDue {
  id: number;
  due: number;
}

/** The statements of permits, obligations and submissions beyond the records layer's. */
@Injectable()
export class ComplianceRepository {
  /** Locks the next batch of ACTIVE permits past their expiry date. */
  @SqlExample((c) => [c.manager, NOW])
  async lockExpiredPermits(m: EntityManager, now: Date): Promise<number[]> {
    const rows: { id: number }[] = await m.query(
      `SELECT id FROM environmental_permits WHERE status = 'ACTIVE' AND expiry_date < $1
        ORDER BY id LIMIT ${DAILY_BATCH} FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return rows.map((r) => r.id);
  }

  /** Locks the next batch of ACTIVE permits that reached a notice threshold they were not told of. */
  @SqlExample((c) => [c.manager, NOW, IN_90_DAYS])
  async lockNoticesDue(m: EntityManager, now: Date, until: Date): Promise<NoticeDue[]> {
    const rows: { id: number; due: number | string }[] = await m.query(
      `SELECT id, due FROM (
         SELECT id, expiry_notice_days, ${NOTICE_DUE} AS due FROM environmental_permits
          WHERE status = 'ACTIVE' AND expiry_date BETWEEN $1 AND $2
          ORDER BY id FOR UPDATE SKIP LOCKED) p
        WHERE expiry_notice_days IS NULL OR expiry_notice_days > due
        LIMIT ${DAILY_BATCH}`,
      [now, until],
    );
    return rows.map((r) => ({ id: r.id, due: Number(r.due) }));
  }

  /** Locks the next batch of ACTIVE obligations past their due date. */
  @SqlExample((c) => [c.manager, NOW])
  async lockOverdueObligations(m: EntityManager, now: Date): Promise<number[]> {
    const rows: { id: number }[] = await m.query(
      `SELECT id FROM compliance_obligations WHERE status = 'ACTIVE' AND next_due_date < $1
        ORDER BY id LIMIT ${DAILY_BATCH} FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return rows.map((r) => r.id);
  }

  @SqlExample((c) => [c.manager, 1])
  permit(m: EntityManager, id: number): Promise<EnvironmentalPermit> {
    return m.findOneByOrFail(EnvironmentalPermit, { id });
  }

  @SqlExample((c) => [c.manager, 1])
  obligation(m: EntityManager, id: number): Promise<ComplianceObligation> {
    return m.findOneByOrFail(ComplianceObligation, { id });
  }

  /** Saves a permit in the caller's transaction and answers it as saved. */
  @SqlExample((c) => [c.manager, { id: 1, status: 'EXPIRED' }])
  savePermit(m: EntityManager, permit: Partial<EnvironmentalPermit>): Promise<EnvironmentalPermit> {
    return m.save(EnvironmentalPermit, permit);
  }

  @SqlExample((c) => [c.manager, { id: 1, status: 'OVERDUE' }])
  saveObligation(m: EntityManager, obligation: Partial<ComplianceObligation>): Promise<ComplianceObligation> {
    return m.save(ComplianceObligation, obligation);
  }

  /** The last expiry notice sent for a permit (null: none yet, as after a new expiry date). */
  @SqlExample((c) => [c.manager, 1, 30])
  @SqlExample((c) => [c.manager, 1, null])
  async setNoticeDays(m: EntityManager, id: number, days: number | null): Promise<void> {
    if (days === null) {
      await m.query('UPDATE environmental_permits SET expiry_notice_days = NULL WHERE id = $1', [id]);
    } else {
      await m.query('UPDATE environmental_permits SET expiry_notice_days = $2 WHERE id = $1', [id, days]);
    }
  }

  @SqlExample((c) => [c.manager, 1])
  async obligationsOfPermit(m: EntityManager, permitId: number): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM compliance_obligations WHERE permit_id = $1',
      [permitId],
    );
    return n;
  }

  @SqlExample((c) => [c.manager, 1])
  async submissionsOfObligation(m: EntityManager, obligationId: number): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM compliance_submissions WHERE obligation_id = $1',
      [obligationId],
    );
    return n;
  }

  /** ACTIVE permits with now ≤ expiryDate ≤ until, soonest first. */
  @SqlExample((c) => [c.manager, 7, NOW, IN_90_DAYS, PAGE])
  expiringPermits(
    m: EntityManager,
    scope: number | null,
    now: Date,
    until: Date,
    page: Page,
  ): Promise<Paged<EnvironmentalPermit>> {
    return recordRows.pageBy(m, EnvironmentalPermit, scope, page, (qb) =>
      qb
        .andWhere("r.status = 'ACTIVE'")
        .andWhere('r.expiry_date BETWEEN :now AND :until', { now, until })
        .orderBy('r.expiryDate', 'ASC'),
    );
  }

  /** ACTIVE or OVERDUE obligations due before now, most overdue first. */
  @SqlExample((c) => [c.manager, 7, NOW, PAGE])
  overdueObligations(
    m: EntityManager,
    scope: number | null,
    now: Date,
    page: Page,
  ): Promise<Paged<ComplianceObligation>> {
    return recordRows.pageBy(m, ComplianceObligation, scope, page, (qb) =>
      qb
        .andWhere("r.status IN ('ACTIVE', 'OVERDUE')")
        .andWhere('r.next_due_date < :now', { now })
        .orderBy('r.nextDueDate', 'ASC'),
    );
  }

  /** ACTIVE obligations with now ≤ nextDueDate ≤ until, soonest first. */
  @SqlExample((c) => [c.manager, 7, NOW, IN_90_DAYS, PAGE])
  upcomingObligations(
    m: EntityManager,
    scope: number | null,
    now: Date,
    until: Date,
    page: Page,
  ): Promise<Paged<ComplianceObligation>> {
    return recordRows.pageBy(m, ComplianceObligation, scope, page, (qb) =>
      qb
        .andWhere("r.status = 'ACTIVE'")
        .andWhere('r.next_due_date BETWEEN :now AND :until', { now, until })
        .orderBy('r.nextDueDate', 'ASC'),
    );
  }

  /** The obligations of one permit, newest first. */
  @SqlExample((c) => [c.manager, 7, 1, PAGE])
  permitObligations(
    m: EntityManager,
    scope: number | null,
    permitId: number,
    page: Page,
  ): Promise<Paged<ComplianceObligation>> {
    return recordRows.pageBy(m, ComplianceObligation, scope, page, (qb) =>
      qb.andWhere('r.permit_id = :permitId', { permitId }).orderBy('r.id', 'DESC'),
    );
  }
}
