import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { TestApp } from './helpers/testApp';

describe('message keys beside the English texts', () => {
  let t: TestApp;
  let siteId: number;
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, siteId, tokens } = await startDemoSiteSuite(['group-of-sites-admin', 'site-engineer']));
  });
  afterAll(() => t.close());

  const createCrew = (name: unknown, token: string, language?: string) =>
    t.call(token, {
      method: 'POST',
      url: `/api/sites/${siteId}/crews`,
      payload: { name },
      headers: language ? { 'accept-language': language } : {},
    });

  it('keys a success message and a 409 duplicate with its label', async () => {
    const created = await createCrew('Keyed crew', tokens['group-of-sites-admin'], 'ar');
    expect(created.statusCode).toBe(200);
    expect(created.json).toMatchObject({
      message: 'Crew is created successfully',
      messageKey: 'server.reply.created',
      messageParams: { label: 'Crew' },
    });
    const duplicate = await createCrew('Keyed crew', tokens['group-of-sites-admin'], 'ar');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json).toEqual({
      status: 'error',
      message: 'Crew name already exists!',
      messageKey: 'server.reply.duplicateName',
      messageParams: { label: 'Crew' },
    });
  });

  it('keys each field error of a validation error', async () => {
    const response = await createCrew('x'.repeat(500), tokens['group-of-sites-admin'], 'ar-AE,ar;q=0.9');
    expect(response.statusCode).toBe(422);
    expect(response.json).toMatchObject({
      errors: { name: 'Name accepts a maximum of 100 characters' },
      messageKey: 'server.field.maxChars',
      messageParams: { label: 'Name', limit: 100 },
      errorKeys: { name: { key: 'server.field.maxChars', params: { label: 'Name', limit: 100 } } },
    });
    const blank = await createCrew('   ', tokens['group-of-sites-admin'], 'ar');
    expect((blank.json as { errorKeys?: unknown }).errorKeys).toEqual({
      name: { key: 'server.field.required', params: { label: 'Name' } },
    });
  });

  it('keys a 403 refusal', async () => {
    const response = await createCrew('Not mine', tokens['site-engineer'], 'ar');
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual({
      status: 'error',
      message: 'Not Authorized',
      messageKey: 'server.reply.notAuthorized',
    });
  });

  it('sends the envelope as before to a client that names no language', async () => {
    const response = await createCrew('Keyed crew', tokens['group-of-sites-admin']);
    expect(response.json).toEqual({ status: 'error', message: 'Crew name already exists!' });
    const anyLanguage = await createCrew('Keyed crew', tokens['group-of-sites-admin'], '*');
    expect(anyLanguage.json).toEqual({ status: 'error', message: 'Crew name already exists!' });
  });
});
