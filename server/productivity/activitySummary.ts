import { sumHours } from '../../src/domain/productivity';
import type { Activity, ActivitySummary } from '../../src/domain/schemas/productivity';

/**
 * Gain and loss hours by crew and lost hours by delay code over every activity given (the whole
 * filtered range, not a page). Activities whose gain and loss are not computable add nothing.
 */
export function summaryOf(activities: readonly Activity[]): ActivitySummary {
  const crews = new Map<string, { crew: Activity['crew']; gains: number[]; losses: number[] }>();
  const codes = new Map<number, { code: string; name: string; hours: number[] }>();
  for (const activity of activities) {
    const key = String(activity.crew?.id ?? '');
    const crew = crews.get(key) ?? { crew: activity.crew, gains: [], losses: [] };
    if (activity.gain_hours !== null) crew.gains.push(activity.gain_hours);
    if (activity.loss_hours !== null) crew.losses.push(activity.loss_hours);
    crews.set(key, crew);
    for (const delay of activity.delays) {
      const code = codes.get(delay.delay_code.id) ?? {
        code: delay.delay_code.code,
        name: delay.delay_code.name,
        hours: [],
      };
      code.hours.push(delay.hours_lost);
      codes.set(delay.delay_code.id, code);
    }
  }
  return {
    by_crew: [...crews.values()]
      .map(({ crew, gains, losses }) => ({
        crew_id: crew?.id ?? null,
        crew_name: crew?.name ?? null,
        gain_hours: sumHours(gains),
        loss_hours: sumHours(losses),
      }))
      .sort((a, b) => (a.crew_name ?? '\uffff').localeCompare(b.crew_name ?? '\uffff')),
    by_delay_code: [...codes.entries()]
      .map(([id, { code, name, hours }]) => ({
        delay_code_id: id,
        code,
        name,
        hours_lost: sumHours(hours),
      }))
      .sort((a, b) => a.code.localeCompare(b.code)),
  };
}
