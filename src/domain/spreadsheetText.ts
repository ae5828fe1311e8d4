/**
 * A value written into an exported sheet cell: text starting with = + - @ (or a tab or carriage
 * return) would be read as a formula by a spreadsheet that opens the file, so it gets a leading
 * apostrophe and stays text (OWASP "CSV injection"). Numbers are not text and pass as they are.
 */
export function neutraliseFormula(value: string | number): string | number {
  if (typeof value !== 'string') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
