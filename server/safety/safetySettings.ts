import { eq, inArray } from 'drizzle-orm';
import {
  type EscalationLevel,
  effectiveEscalationLevels,
  type SafetySettings,
} from '../../src/domain/escalation';
import type { Db } from '../db/database';
import { siteSafetySettings } from '../db/schema';

/**
 * A site's safety settings (table site_safety_settings): the hours a silent helmet still counts
 * as possibly inside, and the escalation levels, the default ones while the site saved none.
 */
export async function readSafetySettings(db: Db, siteId: number): Promise<SafetySettings> {
  const [row] = await db
    .select()
    .from(siteSafetySettings)
    .where(eq(siteSafetySettings.siteId, siteId))
    .limit(1);
  return {
    possiblyInsideHours: row?.possiblyInsideHours ?? null,
    escalationLevels: effectiveEscalationLevels(row?.escalationLevels ?? []),
  };
}

/** The escalation levels of several sites in one query (sites without settings get the default). */
export async function escalationLevelsOf(
  db: Db,
  siteIds: readonly number[],
): Promise<Map<number, EscalationLevel[]>> {
  const unique = [...new Set(siteIds)];
  const rows =
    unique.length === 0
      ? []
      : await db
          .select({ siteId: siteSafetySettings.siteId, levels: siteSafetySettings.escalationLevels })
          .from(siteSafetySettings)
          .where(inArray(siteSafetySettings.siteId, unique));
  const stored = new Map(rows.map((row) => [row.siteId, row.levels]));
  return new Map(unique.map((siteId) => [siteId, effectiveEscalationLevels(stored.get(siteId) ?? [])]));
}

/** Saves validated settings (the caller validates with src/domain/escalation.ts). */
export async function writeSafetySettings(db: Db, siteId: number, settings: SafetySettings): Promise<void> {
  const values = {
    possiblyInsideHours: settings.possiblyInsideHours,
    escalationLevels: settings.escalationLevels,
    updatedAt: new Date(),
  };
  await db
    .insert(siteSafetySettings)
    .values({ siteId, ...values })
    .onConflictDoUpdate({ target: siteSafetySettings.siteId, set: values });
}
