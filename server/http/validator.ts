import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { isTextRulePattern } from '../../src/domain/text';

/**
 * The app's one validator: TypeBox, not a coercing ajv. Bodies are checked as sent: `"5"`
 * is not an id (spec §7: numeric or null) and `true` is not a name. Path parameters arrive as
 * strings, so whole-number strings become numbers first; nothing else is converted. Errors keep
 * ajv's shape, so the error handler words them in the spec's messages.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validator = Compile(schema);
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return (value: unknown) => {
    const input =
      httpPart === 'body'
        ? value
        : httpPart === 'params'
          ? wholeNumbers(value, properties)
          : Value.Convert(schema, value);
    if (validator.Check(input)) return { value: input };
    // No body at all is reported field by field, as an empty object would be.
    return { error: issuesOf(validator, input ?? {}) };
  };
};

function wholeNumbers(value: unknown, properties: Record<string, { type?: unknown }>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, raw]) => [
      key,
      properties[key]?.type === 'integer' && typeof raw === 'string' && /^\d{1,10}$/.test(raw)
        ? Number(raw)
        : raw,
    ]),
  );
}

function issuesOf(validator: ReturnType<typeof Compile>, value: unknown): FastifySchemaValidationError[] {
  const issues: FastifySchemaValidationError[] = [];
  for (const error of validator.Errors(value)) {
    const missing = (error.params as { requiredProperties?: unknown }).requiredProperties;
    if (error.keyword === 'required' && Array.isArray(missing)) {
      // TypeBox lists every missing property in one error; ajv (and the error handler) one each.
      for (const property of missing) {
        issues.push({ ...error, params: { missingProperty: String(property) } });
      }
    } else if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperties?: unknown }).additionalProperties;
      for (const property of Array.isArray(extra) ? extra : []) {
        issues.push({ ...error, params: { additionalProperty: String(property) } });
      }
    } else if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) {
      // The same extra property again, as "schema is false": reported once above.
    } else if (
      error.keyword === 'pattern' &&
      isTextRulePattern(error.params.pattern) &&
      isBlank(value, error.instancePath)
    ) {
      // A non-blank text rule refused only white space: that is a missing value, not a bad character.
      issues.push({ ...error, keyword: 'minLength', params: { limit: 1 } } as FastifySchemaValidationError);
    } else {
      issues.push(error as FastifySchemaValidationError);
    }
  }
  return issues;
}

/** Whether the value at a JSON pointer of the input is a string of white space only. */
function isBlank(root: unknown, pointer: string): boolean {
  let node: unknown = root;
  for (const segment of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return typeof node === 'string' && node.trim() === '';
}
