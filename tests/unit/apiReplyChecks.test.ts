import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('reply checks of src/api', () => {
  it('happen in the API client only: no fetcher checks a reply by itself', () => {
    const checking = sourceFiles(join('src', 'api'))
      .filter((path) => !path.endsWith('client.ts'))
      .filter((path) =>
        /typebox\/value|\bCheck\(|function checked|replyError\(/.test(readFileSync(path, 'utf8')),
      );
    expect(checking).toEqual([]);
  });
});
