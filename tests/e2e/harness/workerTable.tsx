// A page with nothing but the console's worker table, for the table scroll benchmark: every row
// already loaded, so the figures are the table's own (the /workers screen fetches the rows around
// the view from the server as it scrolls). Driven from Node through `window.workerTableHarness`.
import '@blueprintjs/core/lib/css/blueprint.css';
import '../../../src/views/workers/workers.css';
import { Icons } from '@blueprintjs/icons';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { toWorkerDisplay, type WorkerDisplay, type WorkerFlat } from '../../../src/domain/workers';
import { addScreenTexts, applyLocale, initI18n } from '../../../src/i18n';
import { ENGLISH_SCREENS } from '../../../src/i18n/englishScreens';
import { WorkersTable } from '../../../src/views/workers/WorkersTable';
import { WORKER_COLUMNS } from '../../../src/views/workers/workerColumns';
import { createTableScrollProbe, frame, nextFrames } from './tableScrollProbe';
import { WORKER_TABLE_SCROLLER, type WorkerTableMountOptions } from './workerTableFixture';

void Icons.loadAll({ loader: 'all' });
const i18n = initI18n('en');
addScreenTexts(ENGLISH_SCREENS);

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
      ? document.querySelector<HTMLElement>(WORKER_TABLE_SCROLLER)
      : document.querySelector<HTMLElement>('.harness-empty-scroll');
  if (!element) throw new Error('nothing to scroll');
  return element;
}

const probe = createTableScrollProbe({
  scroller,
  // The bare box has no cells: nothing in view to draw.
  body: () =>
    mounted.kind === 'table'
      ? document.querySelector<HTMLElement>(
          '.sw-workers-table .bp6-table-quadrant-main .bp6-table-body-virtual-client',
        )
      : null,
  rows: () => mounted.rows,
  rowHeight: ROW_HEIGHT,
  columnWidths: WORKER_COLUMNS.map((column) => column.width),
});

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
                rowCount={rows.length}
                rowAt={(index) => rows[index]}
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
      const drawn = mounted.kind === 'table' ? '.sw-workers-table .bp6-table-cell' : '.harness-empty-scroll';
      if (!document.querySelector(drawn)) continue;
      probe.readGeometry();
      const c = probe.coverage(0);
      if (c.missing === 0 && (options.kind !== 'table' || c.expected > 0)) break;
    }
    const ms = performance.now() - started;
    await nextFrames(10);
    return Number(ms.toFixed(1));
  },

  measureScroll: probe.measureScroll,
  nextFrames,
};

declare global {
  interface Window {
    workerTableHarness: typeof harness;
  }
}
window.workerTableHarness = harness;
