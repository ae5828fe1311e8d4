import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/domain/roles';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

const REPORT_URL = 'https://app.powerbi.com/reportEmbed?reportId=5b218778-e7a5-4d73-8187-f10824047715';
const PUBLISHED_URL = 'https://app.powerbi.com/view?r=eyJrIjoiNDk2ZDk1ZjYifQ%3D%3D';

interface Report {
  id: number;
  site_id: number;
  name: string;
  embed_url: string;
  is_active: boolean;
  created_by: number | null;
}

describe('Power BI reports of a site', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let otherAdmin: string;
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite(ROLES));
    otherAdmin = await t.login(other.email('group-of-sites-admin'));
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post } = suiteRequests(() => t, admin);
  const path = (id = siteId) => `/api/sites/${id}/power-bi`;
  const create = async (name: string, embed_url = REPORT_URL, as = admin()) => {
    const reply = await post(path(), { name, embed_url }, as);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json.data as Report;
  };
  const listed = async (as: string) => (await get(path(), as)).json.data as Report[];

  it('adds a report with its creator, trimmed, and lists it', async () => {
    const reply = await post(path(), { name: '  Weekly progress  ', embed_url: `  ${REPORT_URL}  ` });
    expect(reply.statusCode).toBe(200);
    expect(reply.json.message).toBe('Power BI report is created successfully');
    const { id: adminId } = (await get('/api/user')).json.data as { id: number };
    expect(reply.json.data).toMatchObject({
      site_id: siteId,
      name: 'Weekly progress',
      embed_url: REPORT_URL,
      is_active: true,
      created_by: adminId,
    });
    expect((await listed(admin())).map((r) => r.name)).toContain('Weekly progress');
  });

  it('stores the link as the browser reads it', async () => {
    const report = await create('Published', 'HTTPS://APP.POWERBI.COM:443/view?r=abc');
    expect(report.embed_url).toBe('https://app.powerbi.com/view?r=abc');
  });

  it.each([
    ['http://app.powerbi.com/view?r=abc', 'Embed URL must start with https://'],
    ['javascript:alert(document.cookie)', 'Embed URL must start with https://'],
    ['data:text/html,<script>alert(1)</script>', 'Embed URL must start with https://'],
    [
      'https://app.powerbi.com.evil.example/view?r=abc',
      'Embed URL must be a Power BI embed link, e.g. https://app.powerbi.com/reportEmbed?reportId=…',
    ],
    [
      'https://\u0430pp.powerbi.com/view?r=abc',
      'Embed URL must be a Power BI embed link, e.g. https://app.powerbi.com/reportEmbed?reportId=…',
    ],
    ['https://app.powerbi.com@evil.example/view?r=abc', 'Embed URL is invalid'],
    ['https://app.powerbi.com:8443/view?r=abc', 'Embed URL is invalid'],
    ['https://app.powerbi.com/view?r=a\nb', 'Embed URL must not contain control characters'],
    ['   ', 'Embed URL is required'],
    [`${PUBLISHED_URL}${'a'.repeat(2048)}`, 'Embed URL accepts a maximum of 2048 characters'],
  ])('refuses %j with 422 "%s", storing nothing', async (embed_url, message) => {
    const before = (await listed(admin())).length;
    const reply = await post(path(), { name: 'Hostile', embed_url });
    expect(reply.statusCode).toBe(422);
    expect(reply.json.message).toBe(message);
    expect(reply.json.errors).toEqual({ embed_url: message });
    expect(await listed(admin())).toHaveLength(before);
  });

  it('says what is missing in the spec words', async () => {
    const missing = await post(path(), {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json.errors).toEqual({ name: 'Name is required', embed_url: 'Embed URL is required' });
    const blank = await post(path(), { name: '  ', embed_url: 'http://app.powerbi.com/view' });
    expect(blank.json.errors).toEqual({
      name: 'Name is required',
      embed_url: 'Embed URL must start with https://',
    });
    const extra = await post(path(), { name: 'X', embed_url: REPORT_URL, created_by: 1 });
    expect(extra.statusCode).toBe(422);
    expect(extra.json.errors).toEqual({ created_by: 'Created by is not allowed' });
    const wrongType = await post(path(), { name: 'X', embed_url: REPORT_URL, is_active: 'yes' });
    expect(wrongType.statusCode).toBe(422);
  });

  it('refuses a duplicate name on the site, case-insensitive and trimmed, with 409', async () => {
    const first = await create('Site costs');
    const again = await post(path(), { name: ' SITE COSTS ', embed_url: PUBLISHED_URL });
    expect(again.statusCode).toBe(409);
    expect(again.json.message).toBe('Power BI report name already exists!');
    const second = await create('Site costs 2');
    const renamed = await post(`${path()}/${second.id}`, { name: 'site costs' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json.message).toBe('Power BI report name already exists!');
    // Its own name in another case is no duplicate of itself; another client's site has its own names.
    expect((await post(`${path()}/${first.id}`, { name: 'SITE COSTS' })).statusCode).toBe(200);
    const elsewhere = await post(
      path(other.siteId),
      { name: 'Site costs', embed_url: REPORT_URL },
      otherAdmin,
    );
    expect(elsewhere.statusCode).toBe(200);
  });

  it('edits the name and link, checking the link again', async () => {
    const report = await create('Manpower');
    const edited = await post(`${path()}/${report.id}`, { name: 'Manpower plan', embed_url: PUBLISHED_URL });
    expect(edited.statusCode).toBe(200);
    expect(edited.json.message).toBe('Power BI report is updated successfully');
    expect(edited.json.data).toMatchObject({
      id: report.id,
      name: 'Manpower plan',
      embed_url: PUBLISHED_URL,
    });
    const hostile = await post(`${path()}/${report.id}`, { embed_url: 'https://evil.example/view' });
    expect(hostile.statusCode).toBe(422);
    expect(hostile.json.errors?.embed_url).toMatch(/^Embed URL must be a Power BI embed link/);
    const stored = (await listed(admin())).find((r) => r.id === report.id);
    expect(stored?.embed_url).toBe(PUBLISHED_URL);
  });

  it('hides a deactivated report from readers, while writers still see it and can activate it', async () => {
    const report = await create('Retired dashboard');
    const viewer = tokens['group-of-sites-viewer'];
    expect((await listed(viewer)).map((r) => r.id)).toContain(report.id);
    const off = await post(`${path()}/${report.id}`, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json.data.is_active).toBe(false);
    expect((await listed(viewer)).map((r) => r.id)).not.toContain(report.id);
    expect((await listed(viewer)).every((r) => r.is_active)).toBe(true);
    expect((await listed(admin())).find((r) => r.id === report.id)?.is_active).toBe(false);
    await post(`${path()}/${report.id}`, { is_active: true });
    expect((await listed(viewer)).map((r) => r.id)).toContain(report.id);
  });

  it('lists by name', async () => {
    const names = (await listed(admin())).map((r) => r.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it('lets the analytics readers read and its writers (site admins and above) write', async () => {
    for (const role of ['super-admin', 'client-admin', 'group-of-sites-admin'] as const) {
      expect((await get(path(), tokens[role])).statusCode).toBe(200);
      const added = await post(path(), { name: `By ${role}`, embed_url: REPORT_URL }, tokens[role]);
      expect(added.statusCode, role).toBe(200);
    }
    const viewer = tokens['group-of-sites-viewer'];
    expect((await get(path(), viewer)).statusCode).toBe(200);
    const [any] = await listed(viewer);
    expect((await post(path(), { name: 'Viewer', embed_url: REPORT_URL }, viewer)).statusCode).toBe(403);
    expect((await post(`${path()}/${any.id}`, { is_active: false }, viewer)).statusCode).toBe(403);
    for (const role of ['crew-manager', 'site-engineer', 'safety-demo'] as const) {
      expect((await get(path(), tokens[role])).statusCode, role).toBe(403);
      expect((await post(`${path()}/${any.id}`, { name: 'X' }, tokens[role])).statusCode, role).toBe(403);
    }
  });

  it("answers 404 for another client's site or report, and leaves them alone", async () => {
    const foreign = (
      await post(path(other.siteId), { name: 'Depot secret', embed_url: REPORT_URL }, otherAdmin)
    ).json.data as Report;
    const ownSite = await get(path(other.siteId));
    expect(ownSite.statusCode).toBe(404);
    expect(ownSite.body).not.toContain('Depot secret');
    expect((await post(path(other.siteId), { name: 'Intruder', embed_url: REPORT_URL })).statusCode).toBe(
      404,
    );
    // The other client's report through our own site's path: not found, not renamed.
    const through = await post(`${path()}/${foreign.id}`, { name: 'Hijacked', is_active: false });
    expect(through.statusCode).toBe(404);
    expect(through.json.message).toBe('Power BI report not found');
    const direct = await post(`${path(other.siteId)}/${foreign.id}`, { name: 'Hijacked' });
    expect(direct.statusCode).toBe(404);
    const theirs = (await get(path(other.siteId), otherAdmin)).json.data as Report[];
    expect(theirs.find((r) => r.id === foreign.id)).toMatchObject({ name: 'Depot secret', is_active: true });
    expect((await post(`${path()}/2147483647`, { name: 'Nobody' })).statusCode).toBe(404);
  });
});
