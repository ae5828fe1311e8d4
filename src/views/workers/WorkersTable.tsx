import '@blueprintjs/table/lib/css/table.css';
import './workersTable.css';
import {
  Cell,
  Column,
  ColumnHeaderCell,
  Regions,
  RenderMode,
  SelectionModes,
  Table,
} from '@blueprintjs/table';
import { type MouseEvent, type ReactElement, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkerDisplay, WorkerSortField } from '../../domain/workers';
import { SortHeaderButton } from '../shared/SortHeaderButton';
import { columnsFromLeft } from '../shared/tableDirection';
import {
  cellText,
  helmetDotColor,
  WORKER_COLUMNS,
  type WorkerColumn,
  type WorkerColumnKey,
} from './workerColumns';

export interface WorkerSort {
  field: WorkerSortField;
  direction: 'asc' | 'desc';
}

interface WorkersTableProps {
  /** How many rows the list has; rows not loaded yet show as loading cells. */
  rowCount: number;
  rowAt(index: number): WorkerDisplay | undefined;
  /** Which rows are in view, as the table scrolls (to fetch the pages around them). */
  onVisibleRows?(range: { first: number; last: number }): void;
  sort: WorkerSort;
  onSort(sort: WorkerSort): void;
  onOpen(workerId: number): void;
  statusText(status: string): string;
}

const STATUS_INTENT: Record<string, string> = {
  active: 'sw-worker-status-active',
  inactive: 'sw-worker-status-inactive',
  offline: 'sw-worker-status-offline',
};

/** Cells whose text is a number, code or phone number: kept left to right inside Arabic text. */
const LTR_COLUMNS: ReadonlySet<WorkerColumnKey> = new Set(['worker_tag_id', 'contact_number']);

/**
 * The columns in the order they stand on screen, from the left. Blueprint lays virtual cells out
 * left to right only, so right-to-left reading gets the columns reversed: the name on the right.
 */
const { columns: COLUMNS_FROM_LEFT, widths: COLUMN_WIDTHS } = columnsFromLeft(WORKER_COLUMNS);
/**
 * Left to right the name column stays put while the table scrolls sideways, so a row read at its
 * far end still says whose it is. Blueprint freezes leftmost columns only: right to left, where
 * the name is the rightmost column, nothing is frozen.
 */
const FROZEN_COLUMNS = { ltr: 1, rtl: 0 } as const;
const ROW_HEIGHT = 32;
/** How many frames to wait for the table to measure its viewport before giving up opening at its end. */
const MEASURE_FRAMES = 30;
const LOADING_CELL = <Cell loading />;

function renderCell(
  worker: WorkerDisplay,
  column: WorkerColumn,
  statusText: (status: string) => string,
  open: (event: MouseEvent<HTMLButtonElement>) => void,
): ReactElement {
  switch (column.key) {
    case 'name':
      return (
        <Cell>
          <button
            type="button"
            className="sw-workers-name"
            data-testid="workers-open"
            data-worker-id={worker.id}
            onClick={open}
          >
            {worker.name}
          </button>
        </Cell>
      );
    case 'helmet': {
      const color = worker.inventory_id === null ? null : helmetDotColor(worker.helmet.color);
      return (
        <Cell>
          <span className="sw-workers-helmet" data-testid="workers-helmet">
            {color && (
              <span className="sw-helmet-dot" style={{ background: color }} title={worker.helmet.color} />
            )}
            {worker.helmet.wnt_inventory_id}
          </span>
        </Cell>
      );
    }
    case 'status':
      return (
        <Cell>
          <span className={STATUS_INTENT[worker.status] ?? ''}>{statusText(worker.status)}</span>
        </Cell>
      );
    default: {
      const text = cellText(worker, column.key, statusText);
      return <Cell className={LTR_COLUMNS.has(column.key) ? 'sw-workers-ltr' : undefined}>{text}</Cell>;
    }
  }
}

/**
 * The site's workers in a Blueprint Table, however many: rows and columns are virtualised, rows
 * not fetched yet show as loading cells, sorting happens on the server (a header click asks for
 * the list again), and the name opens the worker's panel.
 *
 * Scrolling re-renders every cell in view on each frame (RenderMode.NONE, so a jump never shows
 * blank cells), which stays cheap because each cell's element is made once per fetched row and
 * handed back unchanged: Blueprint's Cell then skips re-rendering the cells already on screen.
 */
export function WorkersTable({
  rowCount,
  rowAt,
  onVisibleRows,
  sort,
  onSort,
  onOpen,
  statusText,
}: WorkersTableProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const direction = i18n.dir(language);
  const table = useRef<Table>(null);
  // Right to left, the table opens scrolled to its right end, where the name is. It can scroll
  // once it has measured its viewport, a frame or two after it mounts.
  useLayoutEffect(() => {
    if (direction !== 'rtl') return;
    let frames = 0;
    let frame = requestAnimationFrame(function openAtItsEnd() {
      const mounted = table.current;
      if (mounted?.state.viewportRect) {
        mounted.scrollToRegion(Regions.column(WORKER_COLUMNS.length - 1));
      } else if (++frames < MEASURE_FRAMES) {
        frame = requestAnimationFrame(openAtItsEnd);
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [direction]);

  // The latest handlers, read on click, so new functions from the screen don't redraw every cell.
  const handlers = useRef({ onOpen, onSort, onVisibleRows });
  useLayoutEffect(() => {
    handlers.current = { onOpen, onSort, onVisibleRows };
  });

  // Rows are read through a ref, so new rows redraw the body cells (cellRendererDependencies)
  // without new columns: new columns make Blueprint measure the headers again, a long task.
  const rows = useRef(rowAt);
  rows.current = rowAt;

  const columns = useMemo(() => {
    // Cells by row object: a row fetched again (a refresh, another sort) is drawn again.
    const cache = new WeakMap<WorkerDisplay, ReactElement[]>();
    const statusCache = new Map<string, string>();
    const status = (value: string) => {
      let text = statusCache.get(value);
      if (text === undefined) {
        text = statusText(value);
        statusCache.set(value, text);
      }
      return text;
    };
    const open = (event: MouseEvent<HTMLButtonElement>) =>
      handlers.current.onOpen(Number(event.currentTarget.dataset.workerId));

    const cellRenderer = (column: WorkerColumn, columnIndex: number) => (rowIndex: number) => {
      const worker = rows.current(rowIndex);
      if (!worker) return LOADING_CELL;
      let cells = cache.get(worker);
      if (cells === undefined) {
        cells = [];
        cache.set(worker, cells);
      }
      let element = cells[columnIndex];
      if (element === undefined) {
        element = renderCell(worker, column, status, open);
        cells[columnIndex] = element;
      }
      return element;
    };

    const header = (column: WorkerColumn) => {
      // `language` makes the headers follow a change of language.
      const label = t(`workers.column.${column.key}`, { lng: language });
      const field = column.sort;
      if (!field) return () => <ColumnHeaderCell name={label} />;
      const active = sort.field === field;
      const next: WorkerSort = { field, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' };
      const name = () => (
        <SortHeaderButton
          label={label}
          direction={active ? sort.direction : null}
          testId={`workers-sort-${column.key}`}
          onSort={() => handlers.current.onSort(next)}
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
  }, [sort, statusText, t, language, direction]);

  return (
    // Blueprint lays cells out left to right only (see COLUMNS_FROM_LEFT); each cell's text
    // still follows its own direction.
    <div className="sw-workers-table" dir="ltr" data-testid="workers-table">
      <Table
        // A new direction is a new layout, opened at its own end.
        key={direction}
        ref={table}
        numRows={rowCount}
        columnWidths={COLUMN_WIDTHS[direction]}
        numFrozenColumns={FROZEN_COLUMNS[direction]}
        enableRowHeader={false}
        enableColumnReordering={false}
        selectionModes={SelectionModes.NONE}
        renderMode={RenderMode.NONE}
        defaultRowHeight={ROW_HEIGHT}
        cellRendererDependencies={[columns, rowAt]}
        onVisibleCellsChange={(visible) =>
          handlers.current.onVisibleRows?.({ first: visible.rowIndexStart, last: visible.rowIndexEnd })
        }
      >
        {columns}
      </Table>
    </div>
  );
}
