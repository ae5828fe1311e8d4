import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkEmbedUrl,
  EMBED_URL_MAX,
  frameableEmbedUrl,
  POWER_BI_HOSTS,
  POWER_BI_MESSAGES,
  powerBiFrameSources,
} from '../../src/domain/powerBi';

const REQUIRED = 'Embed URL is required';
const INVALID = 'Embed URL is invalid';
const CONTROL = 'Embed URL must not contain control characters';
const REPORT =
  'https://app.powerbi.com/reportEmbed?reportId=5b218778-e7a5-4d73-8187-f10824047715&autoAuth=true';

const messageOf = (input: unknown) => {
  const check = checkEmbedUrl(input);
  return check.ok ? null : check.message;
};

describe('the Power BI embed URL rule', () => {
  it.each([
    REPORT,
    'https://app.powerbi.com/view?r=eyJrIjoiNDk2ZDk1ZjYtYmM3ZS00MjFlIn0%3D',
    'https://app.powerbi.com/rdlEmbed?reportId=5b218778-e7a5-4d73-8187-f10824047715',
    'https://app.powerbigov.us/reportEmbed?reportId=1',
    'https://app.high.powerbigov.us/reportEmbed?reportId=1',
    'https://app.mil.powerbigov.us/view?r=abc',
    'https://app.powerbi.cn/reportEmbed?reportId=1',
  ])('accepts the embed link %s as it is', (url) => {
    expect(checkEmbedUrl(url)).toEqual({ ok: true, url });
  });

  it('stores the link as the browser reads it: trimmed, host lower-cased, default port dropped', () => {
    expect(checkEmbedUrl(`  HTTPS://APP.PowerBI.com:443/reportEmbed?reportId=1  `)).toEqual({
      ok: true,
      url: 'https://app.powerbi.com/reportEmbed?reportId=1',
    });
  });

  it.each([undefined, null, 42, '', '   '])('says the URL is required for %j', (input) => {
    expect(messageOf(input)).toBe(REQUIRED);
  });

  it.each([
    ['http://app.powerbi.com/view?r=abc'],
    ['javascript:alert(document.cookie)'],
    ['JavaScript://app.powerbi.com/view?%0aalert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['ftp://app.powerbi.com/view'],
    ['//app.powerbi.com/view?r=abc'],
    ['app.powerbi.com/view?r=abc'],
    ['https:/app.powerbi.com/view?r=abc'],
    ['https:\\\\app.powerbi.com\\view'],
  ])('refuses %s: not an https link', (input) => {
    expect(messageOf(input)).toBe(POWER_BI_MESSAGES.notHttps);
  });

  it.each([
    ['another host', 'https://evil.example/view?r=abc'],
    ['a host ending like Power BI', 'https://app.powerbi.com.evil.example/view?r=abc'],
    ['a host beginning like Power BI', 'https://evilapp.powerbi.com/view?r=abc'],
    ['a sub-domain', 'https://x.app.powerbi.com/view?r=abc'],
    ['the closed German cloud', 'https://app.powerbi.de/view?r=abc'],
    ['a trailing dot', 'https://app.powerbi.com./view?r=abc'],
    ['an IP address', 'https://13.107.6.152/view?r=abc'],
    ['a Cyrillic а look-alike', 'https://\u0430pp.powerbi.com/view?r=abc'],
    ['a Ukrainian і look-alike', 'https://app.powerb\u0456.com/view?r=abc'],
    ['a Greek ο look-alike', 'https://app.p\u03bfwerbi.com/view?r=abc'],
    ['the service page, not an embed page', 'https://app.powerbi.com/groups/me/reports/1'],
    ['no path', 'https://app.powerbi.com'],
    ['a path climbing out of /view', 'https://app.powerbi.com/view/../groups/me'],
    ['an encoded path', 'https://app.powerbi.com/%76iew?r=abc'],
  ])('refuses %s as no Power BI link', (_case, input) => {
    expect(messageOf(input)).toBe(POWER_BI_MESSAGES.notPowerBi);
  });

  it.each([
    ['a user name in front of another host', 'https://app.powerbi.com@evil.example/view?r=abc'],
    ['credentials', 'https://user:secret@app.powerbi.com/view?r=abc'],
    ['an empty user name', 'https://@app.powerbi.com/view?r=abc'],
    ['another port', 'https://app.powerbi.com:8443/view?r=abc'],
    ['a backslash before @', 'https://app.powerbi.com\\@evil.example/view'],
    ['a space', 'https://app.powerbi.com/view?r=a b'],
    ['a no-break space', 'https://app.powerbi.com\u00a0.evil.example/view'],
    ['a byte-order mark', 'https://app.powerbi.com/view?r=\ufeffabc'],
    ['nothing after the scheme', 'https://'],
    ['a broken host', 'https://app..powerbi.com:99999/view'],
  ])('refuses %s as invalid', (_case, input) => {
    expect(messageOf(input)).toBe(INVALID);
  });

  it.each([
    ['a NUL', 'https://app.powerbi.com/view?r=abc\u0000'],
    ['a line feed', 'https://app.powerbi.com/view?r=abc\n.evil.example'],
    ['a tab inside the scheme', 'java\tscript:alert(1)'],
    ['a carriage return', 'https://app.powerbi.com\r/view'],
    ['an escape', 'https://app.powerbi.com/view?r=\u001b[31m'],
    ['a C1 control', 'https://app.powerbi.com/view?r=\u0085'],
    ['DEL', 'https://app.powerbi.com/view?r=\u007f'],
  ])('refuses %s as control characters', (_case, input) => {
    expect(messageOf(input)).toBe(CONTROL);
  });

  it('holds the link to its length limit', () => {
    const base = 'https://app.powerbi.com/view?r=';
    expect(checkEmbedUrl(base + 'a'.repeat(EMBED_URL_MAX - base.length)).ok).toBe(true);
    expect(messageOf(base + 'a'.repeat(EMBED_URL_MAX - base.length + 1))).toBe(
      `Embed URL accepts a maximum of ${EMBED_URL_MAX} characters`,
    );
    // Within the limit as typed, beyond it once the browser percent-encodes it.
    expect(messageOf(base + 'é'.repeat(EMBED_URL_MAX - base.length))).toBe(
      `Embed URL accepts a maximum of ${EMBED_URL_MAX} characters`,
    );
  });

  it('accepts only links that open an https Power BI page without credentials or port, whatever the text', () => {
    const candidates = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string(),
      fc
        .tuple(
          fc.constantFrom('https://', 'http://', 'HTTPS://', 'https://u@', ''),
          fc.constantFrom(...POWER_BI_HOSTS, 'evil.example', 'app.powerbi.com.evil.example'),
          fc.constantFrom('', ':443', ':8080', '.'),
          fc.constantFrom('/view', '/reportEmbed', '/rdlEmbed', '/', '/VIEW', '/view/'),
          fc.string(),
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(candidates, (text) => {
        const check = checkEmbedUrl(text);
        if (!check.ok) return;
        const url = new URL(check.url);
        expect(url.protocol).toBe('https:');
        expect(POWER_BI_HOSTS).toContain(url.hostname);
        expect(url.username + url.password + url.port).toBe('');
        expect(check.url.length).toBeLessThanOrEqual(EMBED_URL_MAX);
        // The stored form passes again unchanged, so the console frames what the server stored.
        expect(frameableEmbedUrl(check.url)).toBe(check.url);
      }),
      { numRuns: 1000 },
    );
  }, 30_000);
});

describe('what the console may frame', () => {
  it('frames a stored link only as the rule would store it', () => {
    expect(frameableEmbedUrl(REPORT)).toBe(REPORT);
    expect(frameableEmbedUrl('https://APP.powerbi.com/view?r=abc')).toBeNull();
    expect(frameableEmbedUrl('javascript:alert(1)')).toBeNull();
    expect(frameableEmbedUrl('https://app.powerbi.com.evil.example/view?r=abc')).toBeNull();
  });

  it('gives the Content-Security-Policy the Power BI hosts over https only', () => {
    expect(powerBiFrameSources()).toEqual([
      'https://app.powerbi.com',
      'https://app.powerbigov.us',
      'https://app.high.powerbigov.us',
      'https://app.mil.powerbigov.us',
      'https://app.powerbi.cn',
    ]);
  });
});
