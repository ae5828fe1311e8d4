import { LIMITS } from './limits';
import { messages } from './messages';

/**
 * The problem of a required name field in the spec's words (§5), or null: a whitespace-only name
 * is as missing as an empty one, and the trimmed name is held to the name limit.
 */
export function nameProblem(label: string, value: string): string | null {
  const name = value.trim();
  if (!name) return messages.required(label);
  if (name.length > LIMITS.nameMax) return messages.maxChars(label, LIMITS.nameMax);
  return null;
}
