import type { Intent } from '@blueprintjs/core';
import type { TFunction } from 'i18next';
import type { NodeHealthState, NodeProblem } from '../../domain/nodeHealth';
import type { BatteryForecast } from '../../domain/schemas/nodes';
import { formatDayMonth, formatSilence, formatTwoDecimals, formatWhole } from './nodeFormat';

/** The colour of a health state wherever a node's health is shown. */
export const HEALTH_INTENT: Record<NodeHealthState, Intent> = {
  ok: 'success',
  warning: 'warning',
  bad: 'danger',
};

/** Where the words of a problem are read: the console's language and the site's time zone. */
export interface ProblemWordsContext {
  t: TFunction;
  language: string;
  timeZone: string | undefined;
}

/**
 * The battery forecast in words: "reaches 3.20 V about 2 December", "already below the 3.20 V
 * cut-off", "no measurable drain" or "too few readings to tell".
 */
export function forecastWords(
  forecast: BatteryForecast,
  { t, language, timeZone }: ProblemWordsContext,
): string {
  const volts = formatTwoDecimals(forecast.cutoffVolts);
  if (forecast.basis === 'trend' && forecast.reachesCutoffAt !== null) {
    const date = formatDayMonth(Date.parse(forecast.reachesCutoffAt), timeZone, language);
    return t('nodes.forecast.trend', { volts, date });
  }
  if (forecast.basis === 'belowCutoff') return t('nodes.forecast.belowCutoff', { volts });
  if (forecast.basis === 'flat') return t('nodes.forecast.flat');
  return t('nodes.forecast.tooShort');
}

/**
 * One problem in words (the Maintenance Toolkit's rows): "Low battery: 3.28 V, reaches 3.20 V
 * about 2 December", "Weak link: quality 28", "Buffer filling: 88% used", "Anchor moved by
 * 0.45 m", "Silent for 12m 04s".
 */
export function problemWords(
  problem: NodeProblem,
  forecast: BatteryForecast,
  context: ProblemWordsContext,
): string {
  const { t } = context;
  const value = problem.value;
  switch (problem.kind) {
    case 'silent':
      return value === null
        ? t('nodes.problem.silentNever')
        : t('nodes.problem.silent', { duration: formatSilence(value, t) });
    case 'lowBattery':
      return t('nodes.problem.lowBattery', {
        volts: formatTwoDecimals(value ?? 0),
        forecast: forecastWords(forecast, context),
      });
    case 'weakLink':
      return t('nodes.problem.weakLink', { quality: formatWhole(value ?? 0) });
    case 'bufferFilling':
      return t('nodes.problem.bufferFilling', { percent: formatWhole(value ?? 0) });
    case 'moved':
      return t('nodes.problem.moved', { metres: formatTwoDecimals(value ?? 0) });
  }
}
