import '@blueprintjs/table/lib/css/table.css';
import { Button, Icon } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, RenderMode, SelectionModes, Table } from '@blueprintjs/table';
import { useTranslation } from 'react-i18next';
import type { WorkerDisplay, WorkerSortField } from '../../domain/workers';
import { cellText, helmetDotColor, WORKER_COLUMNS, type WorkerColumn } from './workerColumns';

export interface WorkerSort {
  field: WorkerSortField;
  direction: 'asc' | 'desc';
}

interface WorkersTableProps {
  rows: readonly WorkerDisplay[];
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

/**
 * One page of workers in a Blueprint Table: rows and columns are virtualised, sorting happens
 * on the server (a header click asks for the page again), and the name opens the worker's panel.
 */
export function WorkersTable({ rows, sort, onSort, onOpen, statusText }: WorkersTableProps) {
  const { t } = useTranslation();

  const header = (column: WorkerColumn) => {
    const label = t(`workers.column.${column.key}`);
    const field = column.sort;
    if (!field) return <ColumnHeaderCell name={label} />;
    const active = sort.field === field;
    const next: WorkerSort = { field, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' };
    return (
      <ColumnHeaderCell
        name={label}
        nameRenderer={() => (
          <button
            type="button"
            className="sw-workers-sort"
            data-testid={`workers-sort-${column.key}`}
            data-sort={active ? sort.direction : 'none'}
            onClick={() => onSort(next)}
          >
            <span>{label}</span>
            <Icon
              icon={active ? (sort.direction === 'asc' ? 'sort-asc' : 'sort-desc') : 'double-caret-vertical'}
              size={12}
            />
          </button>
        )}
      />
    );
  };

  const cell = (column: WorkerColumn) => (rowIndex: number) => {
    const worker = rows[rowIndex];
    if (!worker) return <Cell />;
    if (column.key === 'name') {
      return (
        <Cell>
          <Button
            minimal
            small
            className="sw-workers-name"
            text={worker.name}
            data-testid="workers-open"
            onClick={() => onOpen(worker.id)}
          />
        </Cell>
      );
    }
    if (column.key === 'helmet') {
      const color = worker.inventory_id === null ? null : helmetDotColor(worker.helmet.color);
      return (
        <Cell>
          <span className="sw-workers-helmet" data-testid="workers-helmet">
            {color && (
              <span className="sw-helmet-dot" style={{ background: color }} title={worker.helmet.color} />
            )}
            <span>{worker.helmet.wnt_inventory_id}</span>
          </span>
        </Cell>
      );
    }
    const text = cellText(worker, column.key, statusText);
    if (column.key === 'status') {
      return (
        <Cell>
          <span className={STATUS_INTENT[worker.status] ?? ''}>{text}</span>
        </Cell>
      );
    }
    return <Cell>{text}</Cell>;
  };

  return (
    // Blueprint's table lays its virtualised cells out left to right only; in Arabic it keeps that
    // layout (name first, on the left) while each cell's text follows its own direction.
    <div className="sw-workers-table" dir="ltr" data-testid="workers-table">
      <Table
        numRows={rows.length}
        columnWidths={WORKER_COLUMNS.map((column) => column.width)}
        enableRowHeader={false}
        enableColumnReordering={false}
        selectionModes={SelectionModes.NONE}
        renderMode={RenderMode.BATCH}
        defaultRowHeight={32}
        cellRendererDependencies={[rows, sort, statusText]}
      >
        {WORKER_COLUMNS.map((column) => (
          <Column
            key={column.key}
            id={column.key}
            columnHeaderCellRenderer={() => header(column)}
            cellRenderer={cell(column)}
          />
        ))}
      </Table>
    </div>
  );
}
