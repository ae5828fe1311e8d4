import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { type WorkerListParams, type WorkerPage, workerPageQuery } from '../../api/workers/workerList';

/** Rows per request while scrolling: a screenful or three, one round trip. */
export const WINDOW_PAGE_SIZE = 100;
/** Rows fetched beyond those in view, so a steady scroll meets rows that are already there. */
const OVERSCAN_ROWS = 40;

export interface VisibleRows {
  first: number;
  last: number;
}

/** The pages (1-based) that hold the rows in view and a margin around them, none past `total` rows. */
export function pagesFor(range: VisibleRows, total?: number, pageSize = WINDOW_PAGE_SIZE): number[] {
  const first = Math.max(0, range.first - OVERSCAN_ROWS);
  const end = total === undefined ? Number.POSITIVE_INFINITY : Math.max(0, total - 1);
  const last = Math.max(first, Math.min(end, range.last + OVERSCAN_ROWS));
  const pages: number[] = [];
  for (let page = Math.floor(first / pageSize) + 1; page <= Math.floor(last / pageSize) + 1; page++) {
    pages.push(page);
  }
  return pages;
}

export interface WorkerWindow<Row> {
  /** How many rows the list has (the server's total); undefined until a page has answered. */
  total: number | undefined;
  /** The row at an index, or undefined while its page loads. */
  rowAt(index: number): Row | undefined;
  /** Pending until a first page arrived, failed when none could be fetched; `refetch` retries. */
  status: { isPending: boolean; isError: boolean; refetch(): unknown };
  /** Rows are on screen but a page around the view could not be fetched (`status.refetch` retries). */
  someFailed: boolean;
  /** Tells the window which rows are in view; it fetches the pages around them. */
  showRows(range: VisibleRows): void;
}

/**
 * A list of any length in a virtualised table, fetched from the server a page at a time as the
 * rows come into view (server-side paging, sorting and search): only the pages around the rows in
 * view are asked for. While a new sort or search loads, the previous list stays on screen.
 * `toRows` turns one page of the server's rows into the table's rows, once per page fetched.
 */
export function useWorkerWindow<Row>(
  api: ApiClient,
  siteId: number,
  query: Omit<WorkerListParams, 'page' | 'perPage'>,
  toRows: (page: WorkerPage) => readonly Row[],
): WorkerWindow<Row> {
  const [pages, setPages] = useState<number[]>([1]);
  // A new site, sort, search or filter starts again at the top.
  const queryKey = JSON.stringify([siteId, query]);
  const [pagesOf, setPagesOf] = useState(queryKey);
  if (pagesOf !== queryKey) {
    setPagesOf(queryKey);
    setPages([1]);
  }
  const results = useQueries({
    queries: pages.map((page) => ({
      ...workerPageQuery(api, siteId, { ...query, page, perPage: WINDOW_PAGE_SIZE }),
      enabled: siteId > 0,
    })),
  });

  // Rows change when a page's data does: the signature follows each page's fetch.
  const signature = results.map((result, i) => `${pages[i]}@${result.dataUpdatedAt}`).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for the pages' data
  const fetched = useMemo(() => {
    const rowsByPage = new Map<number, readonly Row[]>();
    let total: number | undefined;
    results.forEach((result, index) => {
      const data = result.data;
      if (!data || data.page !== pages[index]) return;
      rowsByPage.set(data.page, toRows(data));
      total ??= data.total;
    });
    return total === undefined ? undefined : { total, rowsByPage };
  }, [signature, toRows]);

  // Until the first page of a new sort or search arrives, the previous list stays on screen.
  const lastShown = useRef(fetched);
  useEffect(() => {
    if (fetched) lastShown.current = fetched;
  });
  const shown = fetched ?? lastShown.current;

  const rowAt = useCallback(
    (index: number) =>
      shown?.rowsByPage.get(Math.floor(index / WINDOW_PAGE_SIZE) + 1)?.[index % WINDOW_PAGE_SIZE],
    [shown],
  );

  const knownTotal = useRef<number | undefined>(undefined);
  const showRows = useCallback((range: VisibleRows) => {
    const wanted = pagesFor(range, knownTotal.current);
    setPages((current) =>
      current.length === wanted.length && current.every((page, i) => page === wanted[i]) ? current : wanted,
    );
  }, []);

  useEffect(() => {
    knownTotal.current = fetched?.total;
  });

  const failed = results.filter((result) => result.isError);
  const retry = useCallback(() => {
    for (const result of failed) void result.refetch();
  }, [failed]);
  return {
    total: shown?.total,
    rowAt,
    status: {
      isPending: shown === undefined && !results.some((result) => result.isError),
      isError: shown === undefined && failed.length > 0,
      refetch: retry,
    },
    someFailed: shown !== undefined && failed.length > 0,
    showRows,
  };
}
