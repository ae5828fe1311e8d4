import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiReference } from '../../server/docs/apiReference';

describe('docs/api.md', () => {
  it('matches the routes the server registers (run `npm run docs:api` after changing a route)', async () => {
    const reference = await apiReference();
    expect(reference).toContain('| POST | `/api/login` |');
    expect(readFileSync('docs/api.md', 'utf8')).toBe(reference);
  });
});
