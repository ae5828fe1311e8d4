import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../src/api/queryKeys';

type Key = readonly unknown[];

/** Every key an area can make: its arrays, and its factories called with stand-in arguments. */
function keysOf(entry: unknown): Key[] {
  if (Array.isArray(entry)) return [entry];
  if (typeof entry === 'function') {
    const stand = Array.from({ length: entry.length }, (_, index) => index + 1);
    return keysOf(entry(...stand));
  }
  if (typeof entry === 'object' && entry !== null) return Object.values(entry).flatMap(keysOf);
  return [];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('query keys', () => {
  const areas = Object.entries(queryKeys);

  it('start, within an area, with that area’s one first element', () => {
    for (const [area, entry] of areas) {
      const heads = new Set(keysOf(entry).map((key) => key[0]));
      expect(heads.size, area).toBe(1);
    }
  });

  it('cannot collide across two areas: no two areas share a first element', () => {
    const heads = areas.map(([, entry]) => keysOf(entry)[0][0]);
    expect(new Set(heads).size).toBe(heads.length);
  });

  it('all come from src/api/queryKeys.ts: no other module writes a key or a key table', () => {
    const elsewhere = sourceFiles('src')
      .filter((path) => !path.endsWith(join('api', 'queryKeys.ts')))
      .filter((path) => /queryKey:\s*\[|\b\w+Keys\s*=\s*\{/.test(readFileSync(path, 'utf8')));
    expect(elsewhere).toEqual([]);
  });
});
