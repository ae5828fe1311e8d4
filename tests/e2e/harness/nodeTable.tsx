// A page with nothing but the console's nodes table, for the nodes table benchmark: a site of
// synthetic anchors and sinks, every one loaded, sorted as Nodes Management sorts them, and polled
// as the screen polls the server (a new reply, every node a new object, a share of them with a new
// report), merged into rows as the screen merges them. Driven from Node through `window.nodeTableHarness`.
import '@blueprintjs/core/lib/css/blueprint.css';
import '../../../src/views/nodes/nodes.css';
import { Icons } from '@blueprintjs/icons';
import { StrictMode, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { DEFAULT_ANCHOR_MOVED_THRESHOLD_M, type NodeType, nodeHealth } from '../../../src/domain/nodeHealth';
import type { SiteNode } from '../../../src/domain/schemas/nodes';
import { addScreenTexts, applyLocale, initI18n } from '../../../src/i18n';
import { ENGLISH_SCREENS } from '../../../src/i18n/englishScreens';
import { NodesTable } from '../../../src/views/nodes/NodesTable';
import {
  EMPTY_ROW_CACHE,
  mergeRows,
  NODE_COLUMNS,
  type NodeRow,
  type RowCache,
  sortRows,
  toNodeRow,
} from '../../../src/views/nodes/nodeTable';
import { createTableScrollProbe, frame, nextFrames } from './tableScrollProbe';

void Icons.loadAll({ loader: 'all' });
const i18n = initI18n('en');
addScreenTexts(ENGLISH_SCREENS);

export const NODE_TABLE_SCROLLER =
  '.sw-nodes-table .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container';
const ROW_HEIGHT = 30;

export interface NodeTableMountOptions {
  kind: 'table' | 'empty';
  rows: number;
  locale?: 'en' | 'ar';
  /** A new reply every this many ms (the screen: 10,000); 0 for none. */
  pollEveryMs?: number;
  /** Share of the nodes with a new report in each reply. */
  changedShare?: number;
  /** false: every reply makes new rows for every node (what `mergeRows` saves). */
  reuseRows?: boolean;
}

/** A deterministic 0..1 from an integer. */
const noise = (i: number) => {
  const x = Math.sin(i * 12.9898) * 43758.5453;
  return x - Math.floor(x);
};

function siteNode(i: number, nowMs: number, version: number): SiteNode {
  const type: NodeType = i % 25 === 0 ? 'sink' : 'anchor';
  const troubled = i % 10 === 3;
  const reading = {
    ts: new Date(nowMs - Math.round(noise(i + version) * 50_000)).toISOString(),
    lat: 25 + i * 1e-6,
    long: 55,
    bufferUsage: type === 'sink' && troubled ? 88 : Math.round(noise(i * 3) * 40),
    linkQuality: troubled && type === 'anchor' ? 25 + (i % 20) : 60 + Math.round(noise(i * 5) * 40),
    batteryVoltage: type === 'sink' ? 5 : troubled ? 3.35 : 3.5 + noise(i * 7) * 0.6,
    displacementError: type === 'anchor' ? noise(i * 11) * 0.2 : null,
    neighbors: [],
  };
  return {
    id: i + 1,
    nodeId: `${type === 'sink' ? 'SNK' : 'ANC'}-${String(i + 1).padStart(4, '0')}`,
    networkId: 1 + (i % 4),
    type,
    floorId: 1 + (i % 30),
    isApproved: true,
    configured: { lat: 25, long: 55 },
    reading,
    health: nodeHealth(
      { ...reading, tsMs: Date.parse(reading.ts) },
      { type, nowMs, movedThresholdM: DEFAULT_ANCHOR_MOVED_THRESHOLD_M },
    ),
    buildingId: 1 + (i % 3),
    buildingName: `Tower ${'ABC'[i % 3]}`,
    floorName: `Level ${i % 30}`,
    forecast: { basis: 'flat', reachesCutoffAt: null, voltsPerDay: 0, cutoffVolts: 3.2 },
  };
}

/** A reply of the site's nodes: the previous reply's report for most, a new one for `changedShare`. */
function reply(count: number, previous: SiteNode[] | null, poll: number, changedShare: number): SiteNode[] {
  const nowMs = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const changed = previous === null || noise(i * 31 + poll) < changedShare;
    // The server sends every node as a new object, changed or not.
    return changed ? siteNode(i, nowMs, poll) : JSON.parse(JSON.stringify(previous[i]));
  });
}

const SORT = { column: 'networkId', direction: 'asc' } as const;
const pollRenders: number[] = [];

function PolledTable({ options }: { options: NodeTableMountOptions }) {
  const count = options.rows;
  const [nodes, setNodes] = useState(() => reply(count, null, 0, 1));
  const latest = useRef(nodes);
  const [nowMs, setNowMs] = useState(() => Date.now());
  const cache = useRef<RowCache>(EMPTY_ROW_CACHE);
  const polledAt = useRef<number | null>(null);
  const rows = useMemo<NodeRow[]>(() => {
    if (options.reuseRows === false) return nodes.map(toNodeRow);
    cache.current = mergeRows(cache.current, nodes);
    return cache.current.rows;
  }, [nodes, options.reuseRows]);
  const shown = useMemo(() => sortRows(rows, SORT), [rows]);

  useEffect(() => {
    if (polledAt.current === null) return;
    // From the reply's arrival to the frame that shows it.
    const started = polledAt.current;
    requestAnimationFrame(() => pollRenders.push(performance.now() - started));
    polledAt.current = null;
  });

  useEffect(() => {
    const every = options.pollEveryMs ?? 0;
    if (every <= 0) return;
    let poll = 0;
    const timer = setInterval(() => {
      poll += 1;
      // The reply is made first: what is timed is the screen's work, from its arrival.
      const next = reply(count, latest.current, poll, options.changedShare ?? 0.3);
      latest.current = next;
      polledAt.current = performance.now();
      setNodes(next);
    }, every);
    const clock = setInterval(() => setNowMs(Date.now()), 1000);
    return () => {
      clearInterval(timer);
      clearInterval(clock);
    };
  }, [count, options.pollEveryMs, options.changedShare]);

  return (
    <NodesTable
      rows={shown}
      sort={SORT}
      onSort={() => {}}
      onOpen={() => {}}
      nowMs={nowMs}
      timeZone="Asia/Dubai"
    />
  );
}

/**
 * The body cells the probe counts: the main quadrant's and the frozen columns' (network and node
 * id, drawn in the left quadrant), placed as the main quadrant's body is.
 */
function bodyWithFrozenColumns(): HTMLElement | null {
  const main = document.querySelector<HTMLElement>(
    '.sw-nodes-table .bp6-table-quadrant-main .bp6-table-body-virtual-client',
  );
  if (!main) return null;
  const cells =
    '.sw-nodes-table :is(.bp6-table-quadrant-main, .bp6-table-quadrant-left) .bp6-table-body-virtual-client .bp6-table-cell';
  return {
    getBoundingClientRect: () => main.getBoundingClientRect(),
    querySelectorAll: () => document.querySelectorAll(cells),
  } as unknown as HTMLElement;
}

let root: Root | null = null;
let mounted: NodeTableMountOptions = { kind: 'empty', rows: 0 };

function scroller(): HTMLElement {
  const element =
    mounted.kind === 'table'
      ? document.querySelector<HTMLElement>(NODE_TABLE_SCROLLER)
      : document.querySelector<HTMLElement>('.harness-empty-scroll');
  if (!element) throw new Error('nothing to scroll');
  return element;
}

const probe = createTableScrollProbe({
  scroller,
  body: () => (mounted.kind === 'table' ? bodyWithFrozenColumns() : null),
  rows: () => mounted.rows,
  rowHeight: ROW_HEIGHT,
  columnWidths: NODE_COLUMNS.map((column) => column.width),
});

const harness = {
  /** Mounts the table (or a bare box as tall) and waits until every cell in view is drawn; returns ms taken. */
  async mount(options: NodeTableMountOptions): Promise<number> {
    root?.unmount();
    mounted = options;
    pollRenders.length = 0;
    await applyLocale(options.locale ?? 'en');
    const container = document.getElementById('root')!;
    const started = performance.now();
    root = createRoot(container);
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          {options.kind === 'table' ? (
            <PolledTable options={options} />
          ) : (
            <div className="harness-empty-scroll" dir="ltr">
              <div style={{ height: options.rows * ROW_HEIGHT }} />
            </div>
          )}
        </I18nextProvider>
      </StrictMode>,
    );
    for (;;) {
      await frame();
      const drawn = options.kind === 'table' ? '.sw-nodes-table .bp6-table-cell' : '.harness-empty-scroll';
      if (!document.querySelector(drawn)) continue;
      probe.readGeometry();
      const c = probe.coverage(0);
      if (c.missing === 0 && (options.kind !== 'table' || c.expected > 0)) break;
    }
    const ms = performance.now() - started;
    await nextFrames(10);
    return Number(ms.toFixed(1));
  },

  /** Ms from each reply's arrival to the frame that showed it, since the mount. */
  pollRenders: () => pollRenders.map((ms) => Number(ms.toFixed(2))),
  measureScroll: probe.measureScroll,
  nextFrames,
};

declare global {
  interface Window {
    nodeTableHarness: typeof harness;
  }
}
window.nodeTableHarness = harness;
