import { describe, expect, it } from 'vitest';
import { pagesFor, WINDOW_PAGE_SIZE } from '../../src/views/workers/useWorkerWindow';

describe('the pages the worker table asks for', () => {
  it('asks for the first page at the top of the list', () => {
    expect(pagesFor({ first: 0, last: 25 })).toEqual([1]);
  });

  it('asks for the page of the rows in view and the next one as the view nears its end', () => {
    expect(pagesFor({ first: 40, last: 70 })).toEqual([1, 2]);
    expect(pagesFor({ first: 150, last: 175 })).toEqual([2, 3]);
  });

  it('keeps the previous page while the first rows in view are near its start', () => {
    expect(pagesFor({ first: 5_050, last: 5_055 })).toEqual([51]);
    expect(pagesFor({ first: 5_030, last: 5_055 })).toEqual([50, 51]);
  });

  it('asks for no page past the end of the list once its length is known', () => {
    expect(pagesFor({ first: 170, last: 199 })).toEqual([2, 3]);
    expect(pagesFor({ first: 170, last: 199 }, 200)).toEqual([2]);
    expect(pagesFor({ first: 0, last: 25 }, 0)).toEqual([1]);
  });

  it('never asks for more than the pages around the view, however deep in the list', () => {
    for (const first of [0, 999, 4_321, 9_970]) {
      const pages = pagesFor({ first, last: first + 30 });
      expect(pages.length).toBeLessThanOrEqual(3);
      expect(pages[0]).toBeLessThanOrEqual(Math.floor(first / WINDOW_PAGE_SIZE) + 1);
      expect(pages.at(-1)).toBeGreaterThanOrEqual(Math.floor((first + 30) / WINDOW_PAGE_SIZE) + 1);
    }
  });
});
