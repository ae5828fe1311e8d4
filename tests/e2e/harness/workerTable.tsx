// A page with nothing but the console's worker table, for the table scroll benchmark: the
// /workers screen pages by 50, so no console route shows 10,000 rows in one table. Driven from
// Node through `window.workerTableHarness`.
import '@blueprintjs/core/lib/css/blueprint.css';
import '../../../src/views/workers/workers.css';
import { Icons } from '@blueprintjs/icons';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { toWorkerDisplay, type WorkerDisplay, type WorkerFlat } from '../../../src/domain/workers';
import { applyLocale, initI18n } from '../../../src/i18n';
import { WorkersTable } from '../../../src/views/workers/WorkersTable';
import { WORKER_COLUMNS } from '../../../src/views/workers/workerColumns';
import type { ScrollPhase, ScrollPlan, ScrollResult, WorkerTableMountOptions } from './workerTableFixture';

void Icons.loadAll({ loader: 'all' });
const i18n = initI18n('en');

/** The table's default row height (WorkersTable passes 32). */
const ROW_HEIGHT = 32;
const NOW = new Date('2026-03-01T12:00:00Z');
const ROLES = ['Steel fixer', 'Carpenter', 'Electrician', 'Mason', null];
const SUBCONTRACTORS = ['Gulf Rebar LLC', 'Al Noor Scaffolding', null];
const COLOURS = ['yellow', 'white', '#ff8800', 'blue', null];

/** Deterministic workers in the server's flat form, turned into rows the way the screen does. */
function flatWorker(i: number): WorkerFlat {
  const id = i + 1;
  const helmet = i % 7 !== 0;
  const at = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
  return {
    id,
    media_url: null,
    name: `Worker ${String(id).padStart(5, '0')} ${['Ahmed', 'Priya', 'José', 'Chen', 'Fatima'][i % 5]}`,
    site_id: 1,
    worker_tag_id: `WT-${id}`,
    contact_number: i % 3 ? `+971 50 ${String(1_000_000 + id).slice(1)}` : null,
    helmet_color: helmet ? COLOURS[i % COLOURS.length] : null,
    created_at: at(60 * 24 * (i % 300)),
    updated_at: at(60 * (i % 48)),
    inventory_id: helmet ? 10_000 + id : null,
    inventory_assigned_at: helmet ? at(60 * 24 * (i % 90)) : null,
    is_online: helmet ? i % 3 !== 2 : null,
    is_active: helmet ? i % 3 === 0 : null,
    worker_role_id: ROLES[i % ROLES.length] ? (i % ROLES.length) + 1 : null,
    worker_role_name: ROLES[i % ROLES.length],
    wnt_inventory_id: helmet ? `HLM-${10_000 + id}` : null,
    building_name: `Tower ${String.fromCharCode(65 + (i % 4))}`,
    floor_name: `Level ${i % 30}`,
    zone_name: i % 4 ? `Zone ${i % 40}` : null,
    last_seen: helmet ? at(i % 500) : null,
    last_active_at: helmet ? at((i * 7) % 900) : null,
    subcontractor_id: SUBCONTRACTORS[i % 3] ? (i % 3) + 1 : null,
    subcontractor_name: SUBCONTRACTORS[i % 3],
    crew_name: `Crew ${i % 25}`,
    workshift_name: i % 2 ? 'Day' : 'Night',
  };
}

function displayRows(count: number, locale: 'en' | 'ar'): WorkerDisplay[] {
  const placeholder = i18n.t('workers.placeholder');
  return Array.from({ length: count }, (_, i) =>
    toWorkerDisplay(flatWorker(i), { placeholder, now: NOW, locale }),
  );
}

const statusText = (status: string) =>
  status === 'active' || status === 'inactive' || status === 'offline'
    ? i18n.t(`workers.status.${status}`)
    : status;

let root: Root | null = null;
let mounted: WorkerTableMountOptions = { kind: 'empty', rows: 0 };

/** The element that scrolls: the table's main quadrant, or the bare box. */
function scroller(): HTMLElement {
  const element =
    mounted.kind === 'table'
      ? document.querySelector<HTMLElement>(
          '.sw-workers-table .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container',
        )
      : document.querySelector<HTMLElement>('.harness-empty-scroll');
  if (!element) throw new Error('nothing to scroll');
  return element;
}

/** The positioned box the body cells sit in (row i at i × 32 px), or the bare box's content. */
function bodyClient(): HTMLElement | null {
  return mounted.kind === 'table'
    ? document.querySelector<HTMLElement>(
        '.sw-workers-table .bp6-table-quadrant-main .bp6-table-body-virtual-client',
      )
    : document.querySelector<HTMLElement>('.harness-empty-content');
}

/** Each column's left edge in the body, and the right edge of the last. */
const COLUMN_LEFT = [0];
for (const column of WORKER_COLUMNS) COLUMN_LEFT.push(COLUMN_LEFT[COLUMN_LEFT.length - 1] + column.width);
const CELL_CLASS =
  /bp6-table-cell-row-(\d+)\b.*?bp6-table-cell-col-(\d+)\b|bp6-table-cell-col-(\d+)\b.*?bp6-table-cell-row-(\d+)\b/;

interface Coverage {
  expected: number;
  missing: number;
  rows: number;
}

/** Where the scroll box and the body sit at scroll position 0, read once after mounting. */
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
  const view = scroller().getBoundingClientRect();
  const body = bodyClient()!.getBoundingClientRect();
  const scrollTop = scroller().scrollTop;
  geometry = {
    viewTop: view.top,
    viewBottom: view.top + scroller().clientHeight,
    viewLeft: view.left,
    viewRight: view.left + scroller().clientWidth,
    bodyTop: body.top + scrollTop,
    bodyLeft: body.left,
    headerHeight: Math.max(0, body.top + scrollTop - view.top),
  };
}

/**
 * Which body cells are in view at scroll position `scrollTop` (from the geometry read at mount
 * and the fixed row and column sizes: no layout read, so the probe forces no layout of its own)
 * and how many of them are in the DOM: what the frame paints.
 */
function coverage(scrollTop: number): Coverage {
  if (mounted.kind !== 'table' || !bodyClient()) return { expected: 0, missing: 0, rows: 0 };
  const g = geometry;
  const bodyTop = g.bodyTop - scrollTop;
  const top = Math.max(g.viewTop + g.headerHeight, bodyTop);
  const firstRow = Math.max(0, Math.floor((top - bodyTop) / ROW_HEIGHT));
  const lastRow = Math.min(mounted.rows - 1, Math.ceil((g.viewBottom - bodyTop) / ROW_HEIGHT) - 1);
  const firstCol = Math.max(0, COLUMN_LEFT.findIndex((left) => g.bodyLeft + left > g.viewLeft) - 1);
  let lastCol = COLUMN_LEFT.findIndex((left) => g.bodyLeft + left >= g.viewRight) - 1;
  if (lastCol < 0) lastCol = WORKER_COLUMNS.length - 1;
  const seen = new Set<number>();
  const rows = new Set<number>();
  for (const cell of bodyClient()!.querySelectorAll('.bp6-table-cell')) {
    const m = CELL_CLASS.exec(cell.className);
    if (!m) continue;
    const row = Number(m[1] ?? m[4]);
    const col = Number(m[2] ?? m[3]);
    rows.add(row);
    if (row >= firstRow && row <= lastRow && col >= firstCol && col <= lastCol) seen.add(row * 1000 + col);
  }
  const expected = Math.max(0, lastRow - firstRow + 1) * (lastCol - firstCol + 1);
  return { expected, missing: expected - seen.size, rows: rows.size };
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

function nextFrames(n: number): Promise<void> {
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

const harness = {
  /** Mounts the table (or the bare box) and waits until every cell in view is drawn; returns ms taken. */
  async mount(options: WorkerTableMountOptions): Promise<number> {
    root?.unmount();
    mounted = options;
    await applyLocale(options.locale ?? 'en');
    const rows = displayRows(options.rows, options.locale ?? 'en');
    const container = document.getElementById('root')!;
    const started = performance.now();
    root = createRoot(container);
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          {options.kind === 'table' ? (
            <div className="sw-workers">
              <WorkersTable
                rows={rows}
                sort={{ field: 'name', direction: 'asc' }}
                onSort={() => {}}
                onOpen={() => {}}
                statusText={statusText}
              />
            </div>
          ) : (
            <div className="harness-empty-scroll" dir="ltr">
              <div className="harness-empty-content" style={{ height: options.rows * ROW_HEIGHT }} />
            </div>
          )}
        </I18nextProvider>
      </StrictMode>,
    );
    for (;;) {
      await frame();
      if (!bodyClient()) continue;
      readGeometry();
      const c = coverage(0);
      if (c.missing === 0 && (options.kind !== 'table' || c.expected > 0)) break;
    }
    const ms = performance.now() - started;
    await nextFrames(10);
    return Number(ms.toFixed(1));
  },

  /**
   * Scrolls the body as a user would, moving scrollTop from requestAnimationFrame: a steady
   * scroll, then jumps (a drag of the scroll bar), recording each frame's interval and how much
   * of the view was painted blank.
   */
  async measureScroll(plan: ScrollPlan): Promise<ScrollResult> {
    const box = scroller();
    box.scrollTop = 0;
    await nextFrames(10);
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
      domCells: bodyClient()?.querySelectorAll('.bp6-table-cell').length ?? 0,
      domElements: table?.querySelectorAll('*').length ?? 0,
      cellsInView: end.expected,
    };
  },

  nextFrames,
};

declare global {
  interface Window {
    workerTableHarness: typeof harness;
  }
}
window.workerTableHarness = harness;
