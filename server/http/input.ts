import { messages } from '../../src/domain/messages';
import { unprocessable } from './errors';

/** A trimmed name; a whitespace-only one is as missing as an empty one (the schema caught ""). */
export function requiredName(value: string, field = 'name', label = 'Name'): string {
  const name = value.trim();
  if (!name) throw unprocessable({ [field]: messages.required(label) });
  return name;
}
