import { Injectable, Provider } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { LinkTargetsRepository } from './link-targets.repository';
import { LinkTarget } from './link-target';

/**
 * Checks a link to a `ref` no record type claims, before anything is stored: throws to refuse it
 * (400, 403), answers null when `ref` is not its own, else what the upload hooks get as `checkedLink`.
 */
export type LinkFallback = (
  principal: Principal,
  companyId: number,
  link: LinkTarget,
  mimes: string[],
) => Promise<unknown>;

/**
 * The record types files may be linked to. A feature registers its table under the `ref` names
 * that mean it; a link to one must name a record of the uploading company. Any other `ref` goes to
 * the fallback (custom tables), and when that does not claim it either, is kept as given.
 */
@Injectable()
export class LinkableTargets {
  private readonly tables = new Map<string, string>();
  private fallback?: LinkFallback;

  constructor(private readonly records: LinkTargetsRepository) {}

  /** @param refs the names of `ref` meaning this table, lower-case */
  register(table: string, refs: string[]) {
    for (const ref of refs) this.tables.set(ref, table);
  }

  registerFallback(fallback: LinkFallback) {
    if (this.fallback) throw new Error('A link fallback is registered already');
    this.fallback = fallback;
  }

  /** Checks the link (400 on `refId` for a record the company does not have); answers the fallback's answer. */
  async check(principal: Principal, companyId: number, link: LinkTarget, mimes: string[]): Promise<unknown> {
    const table = this.tables.get(link.ref.toLowerCase());
    if (!table) return this.fallback ? this.fallback(principal, companyId, link, mimes) : null;
    if (!(await this.records.exists(table, link.refId, companyId))) {
      throw AppError.validation([
        { field: 'refId', message: `refId must name a ${link.ref} of the company` },
      ]);
    }
    return null;
  }
}

/** A provider that registers the feature's `table` as a link target under `refs` (lower-case) at start. */
export function linkableTable(table: string, refs: string[]): Provider {
  return {
    provide: Symbol(`linkable ${table}`),
    inject: [LinkableTargets],
    useFactory: (targets: LinkableTargets) => targets.register(table, refs),
  };
}
