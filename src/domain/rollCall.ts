import { EVACUATION_MESSAGES } from './evacuation';
import { controlCharactersMessage, hasControlCharacters } from './text';

/** The longest reason a marshal may give, and the longest name or company of a person added. */
export const MARK_REASON_MAX = 200;
export const ROLL_NAME_MAX = 100;

/** Why a mark's reason is refused (in the words the server answers with), or null. */
export function markReasonProblem(reason: string): string | null {
  if (reason.trim() === '') return EVACUATION_MESSAGES.reasonRequired;
  if (reason.length > MARK_REASON_MAX) return EVACUATION_MESSAGES.reasonTooLong;
  if (hasControlCharacters(reason)) return controlCharactersMessage('Reason');
  return null;
}

/** Why a person without a helmet cannot be added to the roll, field by field (empty: fine). */
export function rollPersonProblems(person: { name: string; company: string }): Record<string, string> {
  const problems: Record<string, string> = {};
  if (person.name.trim() === '') problems.name = EVACUATION_MESSAGES.nameRequired;
  else if (person.name.length > ROLL_NAME_MAX) problems.name = EVACUATION_MESSAGES.nameTooLong;
  else if (hasControlCharacters(person.name)) problems.name = controlCharactersMessage('Name');
  if (person.company.length > ROLL_NAME_MAX) problems.company = EVACUATION_MESSAGES.companyTooLong;
  else if (hasControlCharacters(person.company)) problems.company = controlCharactersMessage('Company');
  return problems;
}
