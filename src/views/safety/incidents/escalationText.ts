import type { TFunction } from 'i18next';
import { isApiError } from '../../../api/client';
import { ESCALATION_MESSAGES } from '../../../domain/escalation';
import { failureText } from '../../shared/serverMessage';

const NAME_OF = new Map<string, string>(
  Object.entries(ESCALATION_MESSAGES).map(([name, text]) => [text, name]),
);

/** One of the escalation rule's texts (src/domain/escalation.ts) in the user's language; others as they are. */
export function escalationText(message: string, t: TFunction): string {
  const name = NAME_OF.get(message);
  return name ? t(`safety.escalationMessages.${name}`) : message;
}

/** A failed step's or save's text for a toast: the rule's refusal translated, else the shared catalogue's. */
export function escalationFailure(error: unknown, fallback: string, t: TFunction): string {
  if (isApiError(error) && NAME_OF.has(error.message)) return escalationText(error.message, t);
  return failureText(error, fallback, t);
}
