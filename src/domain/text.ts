import { type TString, type TStringOptions, Type } from 'typebox';

/**
 * The one rule for text the system takes in (HTTP fields, MQTT and HTTP ingest entries): no
 * control characters. PostgreSQL refuses NUL in text outright (error 22021), and the other C0
 * and C1 controls, DEL and the noncharacters U+FDD0–U+FDEF, U+FFFE, U+FFFF have no business in
 * a name, a tag or a search and only garble exports, logs and screens.
 *
 * Single-line text (names, tags, ids, searches: nearly everything) refuses every C0 control.
 * Multi-line free text (notes, descriptions) keeps tab, line feed and carriage return, which a
 * person types there on purpose. A lone surrogate (JSON may spell one as "\ud800") is refused
 * too: it is not a character, and the drivers would silently store U+FFFD in its place.
 */
const FORBIDDEN_ALWAYS =
  '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF\\uFDD0-\\uFDEF\\uFFFE\\uFFFF';
const FORBIDDEN_IN_ONE_LINE = `${FORBIDDEN_ALWAYS}\\u0009\\u000A\\u000D`;

/** JSON-schema `pattern`s (compiled with the `u` flag, as TypeBox and ajv do). */
export const SINGLE_LINE_TEXT_PATTERN = `^[^${FORBIDDEN_IN_ONE_LINE}]*$`;
export const MULTI_LINE_TEXT_PATTERN = `^[^${FORBIDDEN_ALWAYS}]*$`;
/** Single-line text with at least one character that is not white space. */
export const NON_BLANK_TEXT_PATTERN = `^(?=.*\\S)[^${FORBIDDEN_IN_ONE_LINE}]*$`;

const SINGLE_LINE_FORBIDDEN = new RegExp(`[${FORBIDDEN_IN_ONE_LINE}]`, 'u');
const MULTI_LINE_FORBIDDEN = new RegExp(`[${FORBIDDEN_ALWAYS}]`, 'u');
const SINGLE_LINE_FORBIDDEN_ALL = new RegExp(`[${FORBIDDEN_IN_ONE_LINE}]`, 'gu');

/** The text without the characters single-line text refuses: for a name only shown back (a file's). */
export function withoutControlCharacters(text: string): string {
  return text.replace(SINGLE_LINE_FORBIDDEN_ALL, '');
}

export interface TextRule {
  /** Free text where tab and line breaks are allowed. */
  multiline?: boolean;
}

export interface SafeStringOptions extends TextRule {
  /** Single-line text that must hold more than white space (an id a device reports, say). */
  nonBlank?: boolean;
}

/** Whether the text holds a character the rule refuses. */
export function hasControlCharacters(text: string, rule: TextRule = {}): boolean {
  return (rule.multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(text);
}

/** Whether a schema `pattern` is this rule's, so a refusal is worded as such. */
export function isTextRulePattern(pattern: unknown): boolean {
  return (
    pattern === SINGLE_LINE_TEXT_PATTERN ||
    pattern === MULTI_LINE_TEXT_PATTERN ||
    pattern === NON_BLANK_TEXT_PATTERN
  );
}

/** The field message of a refused text (422 `errors`). */
export function controlCharactersMessage(label: string): string {
  return `${label} must not contain control characters`;
}

/**
 * A TypeBox string under the rule. Every request schema's text (body, params, querystring) is one
 * of these; a pattern of its own would replace the rule, so a caller cannot pass one.
 */
export function SafeString(options: Omit<TStringOptions, 'pattern'> & SafeStringOptions = {}): TString {
  const { multiline, nonBlank, ...stringOptions } = options;
  const pattern = multiline
    ? MULTI_LINE_TEXT_PATTERN
    : nonBlank
      ? NON_BLANK_TEXT_PATTERN
      : SINGLE_LINE_TEXT_PATTERN;
  return Type.String({ ...stringOptions, pattern });
}
