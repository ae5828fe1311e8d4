import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '../../src/domain/messages';
import { controlCharactersMessage, isTextRulePattern } from '../../src/domain/text';
import { HttpError } from './errors';

interface ValidationIssue {
  instancePath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** "client_id" → "Client id", "email" → "Email": the label spec §5's messages name. */
export function fieldLabel(field: string): string {
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    // "embed_url" → "Embed URL", as the screens and the domain rules spell it.
    .replace(/\burl\b/g, 'URL');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function issueToField(issue: ValidationIssue): [string, string] {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required') {
    const missing = String(issue.params.missingProperty ?? issue.params.requiredProperties ?? path);
    const field = path ? `${path}.${missing}` : missing;
    return [field, messages.required(fieldLabel(missing))];
  }
  const field = path || 'body';
  const label = fieldLabel(field.split('.').pop() ?? field);
  const limit = Number(issue.params.limit);
  switch (issue.keyword) {
    case 'maxLength':
      return [field, messages.maxChars(label, limit)];
    case 'minLength':
      return limit <= 1 ? [field, messages.required(label)] : [field, messages.minChars(label, limit)];
    case 'pattern':
      return isTextRulePattern(issue.params.pattern)
        ? [field, controlCharactersMessage(label)]
        : [field, messages.invalid(label)];
    case 'additionalProperties':
      return [
        String(issue.params.additionalProperty),
        messages.notAllowed(fieldLabel(String(issue.params.additionalProperty))),
      ];
    default:
      return [field, messages.invalid(label)];
  }
}

/** Every error leaves as the reply envelope; bad input never becomes a 500. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({
        status: 'error',
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
      });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const errors: Record<string, string> = {};
      for (const issue of fastifyError.validation as ValidationIssue[]) {
        const [field, message] = issueToField(issue);
        errors[field] ??= message;
      }
      return reply
        .code(422)
        .send({ status: 'error', message: Object.values(errors)[0] ?? messages.invalidInput, errors });
    }
    const status = fastifyError.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? messages.requestTooLarge
          : status === 400
            ? messages.malformedRequest
            : error.message;
      return reply.code(status).send({ status: 'error', message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ status: 'error', message: messages.somethingWentWrongContactSupport });
  });
}

/** The 404 message for an unknown route; a long path is cut so a reply never echoes a payload. */
export function notFoundMessage(method: string, path: string): string {
  const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  return messages.routeNotFound(method, shown);
}
