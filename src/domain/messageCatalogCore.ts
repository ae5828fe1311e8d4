import { forbiddenMessage, notBookableMessage, refusedMessage } from './activityStatus';
import { approvalMessages } from './anchorApproval';
import { messages } from './messages';
import { authMessages } from './schemas/auth';
import { approvedMessage } from './schemas/productivity';
import { controlCharactersMessage } from './text';

/** What a text is made of: its i18n key and the values put into it (`{{label}}`, `{{limit}}`). */
export type MessageParams = Record<string, string | number>;
export interface MessageKey {
  key: string;
  params?: MessageParams;
}

/**
 * Texts with values in them: the English function and the names of its arguments, in order. A
 * name ending in `#` is a number. Ones with a fixed beginning come before the ones starting with a
 * label, so "Route GET /x not found" is a route, not a label "Route GET /x".
 */
const TEMPLATES: readonly { key: string; params: readonly string[]; text: (...args: never[]) => string }[] = [
  { key: 'server.reply.routeNotFound', params: ['method', 'path'], text: messages.routeNotFound },
  // Anchor approval's evidence (src/domain/anchorApproval.ts); "from where it is placed" before
  // "from <planning anchor>", which would read it as an anchor named "where it is placed".
  {
    key: 'server.approval.tooFarFromPlaced',
    params: ['installed', 'distance', 'tolerance'],
    text: approvalMessages.tooFarFromPlaced,
  },
  {
    key: 'server.approval.tooFar',
    params: ['installed', 'distance', 'planned', 'tolerance'],
    text: approvalMessages.tooFar,
  },
  { key: 'server.approval.noPosition', params: ['installed'], text: approvalMessages.noPosition },
  { key: 'server.approval.weakLink', params: ['quality', 'minimum'], text: approvalMessages.weakLink },
  {
    key: 'server.approval.noLinkQuality',
    params: ['installed', 'minutes#'],
    text: approvalMessages.noLinkQuality,
  },
  // eTQR activity refusals (src/domain/activityStatus.ts) and the bulk approval's count.
  {
    key: 'server.activity.refused',
    params: ['from', 'action'],
    text: refusedMessage,
  },
  {
    key: 'server.activity.forbidden',
    params: ['action', 'from'],
    text: forbiddenMessage,
  },
  {
    key: 'server.activity.notBookable',
    params: ['from'],
    text: notBookableMessage,
  },
  {
    key: 'server.activity.approvedCount',
    params: ['approved#', 'requested#'],
    text: approvedMessage,
  },
  { key: 'server.field.required', params: ['label'], text: messages.required },
  { key: 'server.field.minChars', params: ['label', 'limit#'], text: messages.minChars },
  { key: 'server.field.maxChars', params: ['label', 'limit#'], text: messages.maxChars },
  { key: 'server.field.minDigits', params: ['label', 'limit#'], text: messages.minDigits },
  { key: 'server.field.maxDigits', params: ['label', 'limit#'], text: messages.maxDigits },
  { key: 'server.field.onlyDigits', params: ['label'], text: messages.onlyDigits },
  { key: 'server.field.controlCharacters', params: ['label'], text: controlCharactersMessage },
  { key: 'server.field.invalid', params: ['label'], text: messages.invalid },
  { key: 'server.field.notAllowed', params: ['label'], text: messages.notAllowed },
  { key: 'server.reply.duplicateName', params: ['label'], text: messages.duplicateName },
  { key: 'server.reply.created', params: ['label'], text: messages.created },
  { key: 'server.reply.deleted', params: ['label'], text: messages.deleted },
  { key: 'server.reply.notFound', params: ['label'], text: messages.notFound },
];

/** An area's texts by `<area>.<name>` key, leaving out the names given. */
export function prefixed(
  area: string,
  texts: Record<string, string>,
  without: readonly string[] = [],
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(texts)
      .filter(([name]) => !without.includes(name))
      .map(([name, text]) => [`${area}.${name}`, text]),
  );
}

/**
 * Texts without values that any page may show (the login page included), by key; the screens'
 * own texts are added by messageCatalog.ts.
 */
export const CORE_MESSAGE_TEXTS: Readonly<Record<string, string>> = {
  'server.reply.malformedRequest': messages.malformedRequest,
  'server.reply.unauthenticated': messages.unauthenticated,
  'server.reply.notAuthorized': messages.notAuthorized,
  'server.reply.invalidInput': messages.invalidInput,
  'server.reply.tooManyAttempts': messages.tooManyAttempts,
  'server.reply.requestTooLarge': messages.requestTooLarge,
  'server.reply.somethingWentWrongContactSupport': messages.somethingWentWrongContactSupport,
  'server.reply.badCredentials': messages.badCredentials,
  ...prefixed('server.auth', authMessages),
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const MATCHERS = TEMPLATES.map(({ key, params, text }) => {
  const marks = params.map((_, index) => `{{${index}}}`);
  const english = (text as (...args: string[]) => string)(...marks);
  const pattern = english
    .split(/\{\{\d+\}\}/)
    .map(escapeRegExp)
    .reduce((whole, part, index) => {
      const param = params[index - 1] ?? '';
      return `${whole}${param.endsWith('#') ? '(\\d+)' : '(.+?)'}${part}`;
    });
  return { key, params, regExp: new RegExp(`^${pattern}$`, 's') };
});

/** A text → key look-up over the templates and the given texts without values. */
export interface MessageCatalog {
  /** The key and values of a text the server sends, or undefined for a text outside the catalogue. */
  keyOf(text: string): MessageKey | undefined;
  /** Every key it knows, for the check that both languages have each one. */
  keys(): string[];
}

export function createMessageCatalog(fixed: Readonly<Record<string, string>>): MessageCatalog {
  const keyOfText = new Map(Object.entries(fixed).map(([key, text]) => [text, key]));
  return {
    keyOf(text) {
      const known = keyOfText.get(text);
      if (known) return { key: known };
      for (const { key, params, regExp } of MATCHERS) {
        const match = regExp.exec(text);
        if (!match) continue;
        const values: MessageParams = {};
        params.forEach((name, index) => {
          const raw = match[index + 1];
          if (name.endsWith('#')) values[name.slice(0, -1)] = Number(raw);
          else values[name] = raw;
        });
        return { key, params: values };
      }
      return undefined;
    },
    keys: () => [...TEMPLATES.map(({ key }) => key), ...Object.keys(fixed)],
  };
}

/** The catalogue of the texts any page may show: what the login page looks texts up in. */
export const CORE_MESSAGE_CATALOG = createMessageCatalog(CORE_MESSAGE_TEXTS);

/** The i18n key of a label that may stand in a text ("Inventory item" → `server.label.inventoryItem`). */
export function labelKey(label: string): string {
  const words = label.trim().split(/[\s_-]+/);
  const camel = words
    .map((word, index) =>
      index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join('');
  return `server.label.${camel}`;
}
