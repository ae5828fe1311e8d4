import { eq } from 'drizzle-orm';
import { radioSettingsOf } from '../../src/domain/radioSettings';
import type { RadioSettings } from '../../src/domain/schemas/installation';
import type { Executor } from '../db/executor';
import { siteRadioSettings } from '../db/schema';

/** The site's radio settings: the stored ones, or the defaults (src/domain/radioSettings.ts). */
export async function loadRadioSettings(db: Executor, siteId: number): Promise<RadioSettings> {
  const [row] = await db
    .select({ settings: siteRadioSettings.settings })
    .from(siteRadioSettings)
    .where(eq(siteRadioSettings.siteId, siteId))
    .limit(1);
  return radioSettingsOf(row?.settings);
}
