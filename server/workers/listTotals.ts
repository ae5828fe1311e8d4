import type { WorkerListQuery } from '../../src/domain/schemas/workers';

/** A list total as counted at one workforce revision of its site. */
export interface CountedTotal {
  revision: number;
  total: number;
}

/** Filters kept apart in memory; past this the least recently used are forgotten. */
const MAX_ENTRIES = 2000;

/**
 * The worker list's totals, per site and filter, each with the workforce revision it was counted
 * at (see workforce_revisions). One per server: a total is reused only while its revision is the
 * site's current one, which the list statement itself reads, so a reused total is never stale.
 */
export class WorkerListTotals {
  private readonly entries = new Map<string, CountedTotal>();

  /** The filter part of a query that a total depends on (not the page, page size or order). */
  static keyOf(siteId: number, query: WorkerListQuery): string {
    const search = query.search?.trim().toLowerCase() ?? '';
    return JSON.stringify([siteId, search, query.roleId ?? null, query.subcontractorId ?? null]);
  }

  get(key: string): CountedTotal | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CountedTotal): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
