// Measures scrolling a virtualised Blueprint table in the page it runs in: the harness page's
// worker table, or the console's /workers screen (injected there by the table benchmark). It only
// reads the DOM, so it works on any page that shows the table.
import type { ScrollPhase, ScrollPlan, ScrollResult } from './workerTableFixture';

export interface TableScrollProbeOptions {
  /** The element that scrolls. */
  scroller(): HTMLElement;
  /** The positioned box the body cells sit in (row i at i × rowHeight px); null for a bare box. */
  body(): HTMLElement | null;
  /** Rows in the list (the last row in view is never past it). */
  rows(): number;
  rowHeight: number;
  columnWidths: readonly number[];
}

interface Coverage {
  expected: number;
  missing: number;
  rows: number;
}

const CELL_CLASS =
  /bp6-table-cell-row-(\d+)\b.*?bp6-table-cell-col-(\d+)\b|bp6-table-cell-col-(\d+)\b.*?bp6-table-cell-row-(\d+)\b/;
/** Blueprint marks a cell whose content has not arrived yet (a row still being fetched). */
const LOADING_CLASS = /\bbp6-loading\b/;

export const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

export function nextFrames(n: number): Promise<void> {
  return new Promise((resolve) => {
    const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  });
}

function phase(): ScrollPhase & { blank: number } {
  return { deltas: [], incompleteFrames: 0, meanBlankShare: 0, blank: 0 };
}

function finish<T extends ScrollPhase & { blank: number }>(p: T): Omit<T, 'blank'> {
  const { blank, ...rest } = p;
  return { ...rest, meanBlankShare: Number((blank / Math.max(1, p.deltas.length)).toFixed(4)) };
}

export function createTableScrollProbe(options: TableScrollProbeOptions) {
  const columnLeft = [0];
  for (const width of options.columnWidths) columnLeft.push(columnLeft[columnLeft.length - 1] + width);

  /** Where the scroll box and the body sit at scroll position 0. */
  let geometry = {
    viewTop: 0,
    viewBottom: 0,
    viewLeft: 0,
    viewRight: 0,
    bodyTop: 0,
    bodyLeft: 0,
    headerHeight: 0,
  };

  function readGeometry(): void {
    const scroller = options.scroller();
    const view = scroller.getBoundingClientRect();
    const body = options.body()?.getBoundingClientRect();
    if (!body) return;
    const scrollTop = scroller.scrollTop;
    geometry = {
      viewTop: view.top,
      viewBottom: view.top + scroller.clientHeight,
      viewLeft: view.left,
      viewRight: view.left + scroller.clientWidth,
      bodyTop: body.top + scrollTop,
      bodyLeft: body.left,
      headerHeight: Math.max(0, body.top + scrollTop - view.top),
    };
  }

  /**
   * Which body cells are in view at scroll position `scrollTop` (from the geometry read before and
   * the fixed row and column sizes: no layout read, so the probe forces no layout of its own) and
   * how many of them are drawn with their content: what the frame paints.
   */
  function coverage(scrollTop: number): Coverage {
    const body = options.body();
    if (!body) return { expected: 0, missing: 0, rows: 0 };
    const g = geometry;
    const bodyTop = g.bodyTop - scrollTop;
    const top = Math.max(g.viewTop + g.headerHeight, bodyTop);
    const firstRow = Math.max(0, Math.floor((top - bodyTop) / options.rowHeight));
    const lastRow = Math.min(options.rows() - 1, Math.ceil((g.viewBottom - bodyTop) / options.rowHeight) - 1);
    const firstCol = Math.max(0, columnLeft.findIndex((left) => g.bodyLeft + left > g.viewLeft) - 1);
    let lastCol = columnLeft.findIndex((left) => g.bodyLeft + left >= g.viewRight) - 1;
    if (lastCol < 0) lastCol = options.columnWidths.length - 1;
    const seen = new Set<number>();
    const rows = new Set<number>();
    for (const cell of body.querySelectorAll('.bp6-table-cell')) {
      const m = CELL_CLASS.exec(cell.className);
      if (!m) continue;
      const row = Number(m[1] ?? m[4]);
      const col = Number(m[2] ?? m[3]);
      rows.add(row);
      if (LOADING_CLASS.test(cell.className)) continue;
      if (row >= firstRow && row <= lastRow && col >= firstCol && col <= lastCol) seen.add(row * 1000 + col);
    }
    const expected = Math.max(0, lastRow - firstRow + 1) * (lastCol - firstCol + 1);
    return { expected, missing: expected - seen.size, rows: rows.size };
  }

  return {
    readGeometry,
    coverage,

    /**
     * Scrolls the body as a user would, moving scrollTop from requestAnimationFrame: a steady
     * scroll, then jumps (a drag of the scroll bar), recording each frame's interval and how much
     * of the view was painted blank or still loading.
     */
    async measureScroll(plan: ScrollPlan): Promise<ScrollResult> {
      const box = options.scroller();
      box.scrollTop = 0;
      await nextFrames(10);
      readGeometry();
      const max = box.scrollHeight - box.clientHeight;
      const longTasks: number[] = [];
      const supported = PerformanceObserver.supportedEntryTypes.includes('longtask');
      const observer = supported
        ? new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) longTasks.push(entry.duration);
          })
        : null;
      observer?.observe({ type: 'longtask' });
      let maxDomRows = 0;
      const record = (p: ScrollPhase & { blank: number }, delta: number, scrollTop: number): Coverage => {
        const c = coverage(scrollTop);
        p.deltas.push(delta);
        if (c.missing > 0) p.incompleteFrames++;
        p.blank += c.expected ? c.missing / c.expected : 0;
        maxDomRows = Math.max(maxDomRows, c.rows);
        return c;
      };

      const steady = phase();
      let position = 0;
      let direction = 1;
      let last = await frame();
      for (let i = 0; i < plan.steadyFrames; i++) {
        // What this frame paints is the position set on the last one.
        position += direction * plan.pxPerFrame;
        if (position >= max || position <= 0) {
          position = Math.min(max, Math.max(0, position));
          direction = -direction;
        }
        box.scrollTop = position;
        const now = await frame();
        record(steady, now - last, position);
        last = now;
      }

      const jumps = { ...phase(), settleMs: [] as (number | null)[], settleFrames: [] as (number | null)[] };
      for (const fraction of plan.jumps) {
        const target = Math.round(fraction * max);
        box.scrollTop = target;
        // Counted from the start of the frame the jump was made in: one frame when nothing lags.
        const jumpedAt = last;
        let settled: number | null = null;
        let settledFrames: number | null = null;
        for (let i = 0; i < plan.framesPerJump; i++) {
          const now = await frame();
          const c = record(jumps, now - last, target);
          last = now;
          if (settled === null && c.missing === 0) {
            settled = Number((now - jumpedAt).toFixed(1));
            settledFrames = i + 1;
          }
        }
        jumps.settleMs.push(settled);
        jumps.settleFrames.push(settledFrames);
      }
      // Long task entries arrive after the task: give them a moment.
      await nextFrames(5);
      observer?.disconnect();
      const end = coverage(box.scrollTop);
      const table = document.querySelector('.sw-workers-table');
      return {
        steady: finish(steady),
        jumps: finish(jumps),
        longTasks: {
          supported,
          count: longTasks.length,
          totalMs: Number(longTasks.reduce((s, d) => s + d, 0).toFixed(1)),
          maxMs: Number(Math.max(0, ...longTasks).toFixed(1)),
        },
        domRows: end.rows,
        maxDomRows,
        domCells: options.body()?.querySelectorAll('.bp6-table-cell').length ?? 0,
        domElements: table?.querySelectorAll('*').length ?? 0,
        cellsInView: end.expected,
      };
    },
  };
}

export type TableScrollProbe = ReturnType<typeof createTableScrollProbe>;
