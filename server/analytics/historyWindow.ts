import { ANALYTICS_MAX_WINDOW_DAYS, ANALYTICS_MESSAGES } from '../../src/domain/analytics';
import { SafeString } from '../../src/domain/text';
import { unprocessable } from '../http/errors';
import { parseTimestamp } from '../inventory/timestamp';

/**
 * The time window both analytics fast paths take (GET /api/floors/{id}/heatmap and …/history):
 * `from` and `to` ISO-8601 date-times (UTC unless they carry an offset), the window [from, to).
 */

const MAX_WINDOW_MS = ANALYTICS_MAX_WINDOW_DAYS * 86_400_000;

/** The query fields of the window, as both routes' querystring schemas declare them. */
export const WindowQueryFields = {
  from: SafeString({ minLength: 1, maxLength: 40 }),
  to: SafeString({ minLength: 1, maxLength: 40 }),
};

export interface TimeWindow {
  from: Date;
  to: Date;
}

/** The window of a request, or a 422 naming what is wrong with it. */
export function parseWindow(query: { from: string; to: string }): TimeWindow {
  const from = parseTimestamp(query.from);
  const to = parseTimestamp(query.to);
  const errors: Record<string, string> = {};
  if (!from) errors.from = ANALYTICS_MESSAGES.fromInvalid;
  if (!to) errors.to = ANALYTICS_MESSAGES.toInvalid;
  if (from && to) {
    if (to.getTime() <= from.getTime()) errors.to = ANALYTICS_MESSAGES.toNotAfterFrom;
    else if (to.getTime() - from.getTime() > MAX_WINDOW_MS) errors.to = ANALYTICS_MESSAGES.windowTooLong;
  }
  if (!from || !to || Object.keys(errors).length > 0) throw unprocessable(errors);
  return { from, to };
}
