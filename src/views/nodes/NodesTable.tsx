import '@blueprintjs/table/lib/css/table.css';
import { type Intent, Tag } from '@blueprintjs/core';
import {
  Cell,
  Column,
  ColumnHeaderCell,
  Regions,
  RenderMode,
  SelectionModes,
  Table,
} from '@blueprintjs/table';
import { type MouseEvent, type ReactElement, type RefObject, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFullDate, formatRelative, formatTwoDecimals, formatWhole } from '../shared/nodeFormat';
import { HEALTH_INTENT } from '../shared/nodeProblems';
import { SortHeaderButton } from '../shared/SortHeaderButton';
import { columnsFromLeft } from '../shared/tableDirection';
import { NODE_COLUMNS, type NodeColumn, type NodeColumnKey, type NodeRow, type NodeSort } from './nodeTable';

interface NodesTableProps {
  rows: readonly NodeRow[];
  sort: NodeSort;
  onSort(column: NodeColumnKey): void;
  onOpen(nodeId: string): void;
  /** The clock the "updated" column reads from; a new value redraws that column only. */
  nowMs: number;
  timeZone: string | undefined;
}

/** Blueprint lays cells out left to right only: right to left, the columns are reversed. */
const { columns: COLUMNS_FROM_LEFT, widths: COLUMN_WIDTHS } = columnsFromLeft(NODE_COLUMNS);
/**
 * Left to right the network and node id stay put while the table scrolls sideways, so a row read
 * at its far end still says which node it is. Blueprint freezes leftmost columns only: right to
 * left, where they are the rightmost, the table opens scrolled to its right end instead.
 */
const FROZEN_COLUMNS = { ltr: 2, rtl: 0 } as const;
const ROW_HEIGHT = 30;
/** The header row and the table's borders and horizontal scroll bar. */
const HEADER_HEIGHT = 48;
/** How many frames to wait for the table to measure its viewport before giving up opening at its end. */
const MEASURE_FRAMES = 30;

/** Right to left, the table opens at its right end, where the node ids are, once it can scroll. */
function useOpenAtRightEnd(table: RefObject<Table | null>, direction: 'ltr' | 'rtl'): void {
  useLayoutEffect(() => {
    if (direction !== 'rtl') return;
    let frame = 0;
    let tries = 0;
    const tryScroll = () => {
      if (table.current?.state.viewportRect)
        table.current.scrollToRegion(Regions.column(NODE_COLUMNS.length - 1));
      else if (++tries < MEASURE_FRAMES) frame = requestAnimationFrame(tryScroll);
    };
    frame = requestAnimationFrame(tryScroll);
    return () => cancelAnimationFrame(frame);
  }, [table, direction]);
}
const CELL_INTENT: Record<'warning' | 'bad', Intent> = { warning: 'warning', bad: 'danger' };

interface CellTexts {
  t: (key: string) => string;
  language: string;
  timeZone: string | undefined;
  open(event: MouseEvent<HTMLButtonElement>): void;
}

function figure(value: number | null | undefined, format: (value: number) => string, unit: string): string {
  return value === null || value === undefined ? '—' : `${format(value)}${unit}`;
}

function renderCell(row: NodeRow, key: NodeColumnKey, texts: CellTexts, nowMs: number): ReactElement {
  const { node } = row;
  const reading = node.reading;
  const state = row.cellStates[key];
  const highlight = state
    ? { intent: CELL_INTENT[state], className: `sw-node-cell sw-node-cell--${state}` }
    : { className: 'sw-node-cell' };
  const numeric = NODE_COLUMNS.find((column) => column.key === key)?.numeric;
  const className = numeric ? `${highlight.className} sw-node-cell--figure` : highlight.className;
  switch (key) {
    case 'nodeId':
      return (
        <Cell className={className}>
          <button
            type="button"
            className="sw-nodes-open"
            data-testid="nodes-open"
            data-node-id={node.nodeId}
            onClick={texts.open}
          >
            {node.nodeId}
          </button>
        </Cell>
      );
    case 'health':
      return (
        <Cell className={className}>
          <Tag minimal intent={HEALTH_INTENT[node.health.state]} data-testid="nodes-health">
            {texts.t(`nodes.health.${node.health.state}`)}
          </Tag>
        </Cell>
      );
    case 'updated':
      return (
        <Cell {...highlight} className={className}>
          {row.updatedMs === null ? (
            texts.t('nodes.never')
          ) : (
            <span title={formatFullDate(row.updatedMs, texts.timeZone, texts.language)}>
              {formatRelative(row.updatedMs, nowMs, texts.language)}
            </span>
          )}
        </Cell>
      );
    default: {
      let text: string;
      if (key === 'networkId') text = node.networkId === null ? '—' : String(node.networkId);
      else if (key === 'type') text = texts.t(`nodes.type.${node.type}`);
      else if (key === 'bufferUsage') text = figure(reading?.bufferUsage, formatWhole, '%');
      else if (key === 'linkQuality') text = figure(reading?.linkQuality, formatWhole, '');
      else if (key === 'batteryVoltage') text = figure(reading?.batteryVoltage, formatTwoDecimals, ' V');
      else if (key === 'displacementError')
        text = figure(reading?.displacementError, formatTwoDecimals, ' m');
      else if (key === 'building') text = node.buildingName ?? '—';
      else text = node.floorName ?? '—';
      return (
        <Cell {...highlight} className={className}>
          {numeric ? <span className="sw-node-figure">{text}</span> : text}
        </Cell>
      );
    }
  }
}

/**
 * The site's anchors and sinks in a Blueprint Table: rows and columns virtualised (only the cells
 * in view exist), sorted and filtered by the screen. Each cell's element is made once per row
 * object and handed back unchanged, and a poll keeps the row object of every node that shows the
 * same (nodeTable.ts `mergeRows`), so a poll of 2,000 nodes redraws only the changed cells in view.
 * The clock's tick redraws the "updated" column alone.
 */
export function NodesTable({ rows, sort, onSort, onOpen, nowMs, timeZone }: NodesTableProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const direction = i18n.dir(language);
  const table = useRef<Table>(null);
  useOpenAtRightEnd(table, direction);

  const handlers = useRef({ onOpen, onSort });
  useLayoutEffect(() => {
    handlers.current = { onOpen, onSort };
  });
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const now = useRef(nowMs);
  now.current = nowMs;

  const columns = useMemo(() => {
    const texts: CellTexts = {
      t: (key) => t(key, { lng: language }),
      language,
      timeZone,
      open: (event) => handlers.current.onOpen(event.currentTarget.dataset.nodeId ?? ''),
    };
    const cache = new WeakMap<NodeRow, ReactElement[]>();
    // The "updated" cells, per row, at the clock's value they were drawn for.
    const updatedCache = new WeakMap<NodeRow, { at: number; element: ReactElement }>();

    const cellRenderer = (column: NodeColumn, columnIndex: number) => (rowIndex: number) => {
      const row = rowsRef.current[rowIndex];
      if (!row) return <Cell />;
      if (column.key === 'updated') {
        const drawn = updatedCache.get(row);
        if (drawn && drawn.at === now.current) return drawn.element;
        const element = renderCell(row, column.key, texts, now.current);
        updatedCache.set(row, { at: now.current, element });
        return element;
      }
      let cells = cache.get(row);
      if (cells === undefined) {
        cells = [];
        cache.set(row, cells);
      }
      let element = cells[columnIndex];
      if (element === undefined) {
        element = renderCell(row, column.key, texts, now.current);
        cells[columnIndex] = element;
      }
      return element;
    };

    const header = (column: NodeColumn) => {
      const label = t(`nodes.column.${column.key}`, { lng: language });
      const active = sort.column === column.key;
      const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
      const name = () => (
        <SortHeaderButton
          label={label}
          direction={active ? sort.direction : null}
          testId={`nodes-sort-${column.key}`}
          ariaLabel={`${label}: ${t(`nodes.sort.${ariaSort}`, { lng: language })}`}
          onSort={() => handlers.current.onSort(column.key)}
        />
      );
      return () => <ColumnHeaderCell name={label} nameRenderer={name} />;
    };

    return COLUMNS_FROM_LEFT[direction].map((column, index) => (
      <Column
        key={column.key}
        id={column.key}
        columnHeaderCellRenderer={header(column)}
        cellRenderer={cellRenderer(column, index)}
      />
    ));
  }, [sort, t, language, direction, timeZone]);

  return (
    <div
      className="sw-nodes-table"
      dir="ltr"
      data-testid="nodes-table"
      data-rows={rows.length}
      // A few rows (a filter) take the room they need; many scroll inside 55 % of the view.
      style={{ blockSize: `min(55vh, ${rows.length * ROW_HEIGHT + HEADER_HEIGHT}px)` }}
    >
      <Table
        key={direction}
        ref={table}
        numRows={rows.length}
        columnWidths={COLUMN_WIDTHS[direction]}
        numFrozenColumns={FROZEN_COLUMNS[direction]}
        enableRowHeader={false}
        enableColumnReordering={false}
        enableColumnResizing={false}
        selectionModes={SelectionModes.NONE}
        renderMode={RenderMode.NONE}
        defaultRowHeight={ROW_HEIGHT}
        cellRendererDependencies={[columns, rows, nowMs]}
      >
        {columns}
      </Table>
    </div>
  );
}
