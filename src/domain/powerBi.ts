import { messages } from './messages';
import { controlCharactersMessage, hasControlCharacters } from './text';

/**
 * Power BI report links of a site (spec §7 "Clients and sites"; docs/decisions.md "Power BI
 * reports"). The embed URL rule below is the one check the server applies before storing a link,
 * the console applies before drawing an <iframe>, and the Content-Security-Policy's frame-src is
 * written from.
 */

/**
 * The Power BI service hosts a report is embedded from: the commercial cloud, the US government
 * clouds (GCC, GCC High, DoD) and the China cloud. Exact names, never a suffix: a suffix match
 * would let `app.powerbi.com.evil.example` or a look-alike through. The German cloud
 * (app.powerbi.de) closed in 2021 and is left out.
 */
export const POWER_BI_HOSTS = [
  'app.powerbi.com',
  'app.powerbigov.us',
  'app.high.powerbigov.us',
  'app.mil.powerbigov.us',
  'app.powerbi.cn',
] as const;

/**
 * The embed pages: a report embedded for the organisation (`/reportEmbed?reportId=…`), a report
 * published to the web (`/view?r=…`) and a paginated report (`/rdlEmbed?reportId=…`).
 */
export const POWER_BI_EMBED_PATHS = ['/reportEmbed', '/view', '/rdlEmbed'] as const;

/** Longer than any embed link Power BI writes (a few hundred characters), short enough to show. */
export const EMBED_URL_MAX = 2048;

export const POWER_BI_REPORT_LABEL = 'Power BI report';
export const EMBED_URL_LABEL = 'Embed URL';

export const POWER_BI_MESSAGES = {
  notHttps: 'Embed URL must start with https://',
  notPowerBi: 'Embed URL must be a Power BI embed link, e.g. https://app.powerbi.com/reportEmbed?reportId=…',
  updated: `${POWER_BI_REPORT_LABEL} is updated successfully`,
} as const;

export type EmbedUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** White space and backslashes inside a link: a browser would drop or re-read them, so the text would not be the link. */
const NOT_IN_A_LINK = /[\s\\]/u;

const HOSTS: ReadonlySet<string> = new Set(POWER_BI_HOSTS);
const PATHS: ReadonlySet<string> = new Set(POWER_BI_EMBED_PATHS.map((path) => path.toLowerCase()));

function refused(message: string): EmbedUrlCheck {
  return { ok: false, message };
}

/**
 * Whether the text is a Power BI embed link, and if so the link as the browser will read it (the
 * host lower-cased, the default port dropped): what is stored and what an <iframe> opens.
 */
export function checkEmbedUrl(input: unknown): EmbedUrlCheck {
  if (typeof input !== 'string' || input.trim() === '') return refused(messages.required(EMBED_URL_LABEL));
  const text = input.trim();
  if (hasControlCharacters(text)) return refused(controlCharactersMessage(EMBED_URL_LABEL));
  if (text.length > EMBED_URL_MAX) return refused(messages.maxChars(EMBED_URL_LABEL, EMBED_URL_MAX));
  if (!/^https:\/\//i.test(text)) {
    // "http://…", "javascript:…", "app.powerbi.com/view?r=…": a link, but not an https one.
    return refused(
      SCHEME.test(text) || !NOT_IN_A_LINK.test(text)
        ? POWER_BI_MESSAGES.notHttps
        : messages.invalid(EMBED_URL_LABEL),
    );
  }
  if (NOT_IN_A_LINK.test(text)) return refused(messages.invalid(EMBED_URL_LABEL));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused(messages.invalid(EMBED_URL_LABEL));
  }
  if (url.protocol !== 'https:') return refused(POWER_BI_MESSAGES.notHttps);
  // `https://app.powerbi.com@evil.example` is evil.example with a user name: no user part at all,
  // not even an empty one the parser would drop.
  const authority = text.slice('https://'.length).split(/[/?#]/)[0];
  if (authority.includes('@') || url.username !== '' || url.password !== '')
    return refused(messages.invalid(EMBED_URL_LABEL));
  if (url.port !== '') return refused(messages.invalid(EMBED_URL_LABEL));
  // The URL parser has lower-cased the host and written a look-alike's letters as punycode (xn--…).
  if (!HOSTS.has(url.hostname)) return refused(POWER_BI_MESSAGES.notPowerBi);
  if (!PATHS.has(url.pathname.toLowerCase())) return refused(POWER_BI_MESSAGES.notPowerBi);
  const href = url.href;
  if (href.length > EMBED_URL_MAX) return refused(messages.maxChars(EMBED_URL_LABEL, EMBED_URL_MAX));
  return { ok: true, url: href };
}

/** The link an <iframe> may open, or null: the stored text passes the rule again and is already in its read form. */
export function frameableEmbedUrl(stored: string): string | null {
  const check = checkEmbedUrl(stored);
  return check.ok && check.url === stored ? check.url : null;
}

/** The CSP frame-src sources: the Power BI hosts over https only. */
export function powerBiFrameSources(): string[] {
  return POWER_BI_HOSTS.map((host) => `https://${host}`);
}

/**
 * The <iframe> sandbox of a report: what Power BI needs to run (its scripts, its own origin's
 * sign-in storage, "open in Power BI" pop-ups, its filter forms), and no top navigation, so a
 * report can never move the console's page elsewhere. allow-same-origin is safe with scripts only
 * because the framed origin is Power BI's, never the console's (frame-src has no 'self').
 */
export const POWER_BI_FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-forms';
