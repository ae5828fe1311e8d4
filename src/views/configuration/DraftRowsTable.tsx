import '@blueprintjs/table/lib/css/table.css';
import { Cell, Column, ColumnHeaderCell, RenderMode, SelectionModes, Table } from '@blueprintjs/table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkKindDefinition } from '../../domain/bulkKinds';
import { labelKey } from '../../domain/messageCatalog';
import { formatCount } from '../../domain/numberFormat';
import type { UploadRow } from '../../domain/schemas/bulk';
import { columnsFromLeft } from '../shared/tableDirection';
import { errorsByColumn, type ReviewColumn, reviewColumns, rowErrorText } from './bulkUploadText';

interface DraftRowsTableProps {
  definition: BulkKindDefinition;
  rows: readonly UploadRow[];
}

const ROW_HEIGHT = 30;

/**
 * A page of a draft's rows in a Blueprint Table: the file's row number, one column per column of
 * the kind (its template header as the heading), and the row's errors. A cell with an error is
 * red, its message its tooltip. Keyboard: Tab reaches the table, the arrow keys move its focus.
 */
export function DraftRowsTable({ definition, rows }: DraftRowsTableProps) {
  const { t, i18n } = useTranslation();
  const direction = i18n.dir(i18n.language);
  const layout = useMemo(() => columnsFromLeft(reviewColumns(definition)), [definition]);
  const errors = useMemo(() => rows.map(errorsByColumn), [rows]);

  const columns = useMemo(() => {
    const header = (column: ReviewColumn) => {
      const name =
        column.key === 'row_number'
          ? t('configuration.bulk.review.row')
          : column.key === 'errors'
            ? t('configuration.bulk.review.errors')
            : 'column' in column
              ? t(labelKey(column.column.label), { defaultValue: column.column.label })
              : column.key;
      return () => <ColumnHeaderCell name={name} />;
    };
    const cell = (column: ReviewColumn) => (rowIndex: number) => {
      const row = rows[rowIndex];
      if (!row) return <Cell />;
      if (column.key === 'row_number') {
        const rowErrors = errors[rowIndex]?.get('');
        return (
          <Cell
            className="sw-bulk-number"
            intent={rowErrors ? 'danger' : undefined}
            tooltip={rowErrors?.join('; ')}
          >
            {formatCount(row.row_number)}
          </Cell>
        );
      }
      if (column.key === 'errors') {
        const text = rowErrorText(row);
        return (
          <Cell intent={text ? 'danger' : undefined} tooltip={text || undefined} wrapText>
            {text}
          </Cell>
        );
      }
      const messages = errors[rowIndex]?.get(column.key);
      return (
        <Cell
          className={messages ? 'sw-bulk-cell-error' : undefined}
          intent={messages ? 'danger' : undefined}
          tooltip={messages?.join('; ')}
        >
          {row.cells[column.key] ?? ''}
        </Cell>
      );
    };
    return layout.columns[direction === 'rtl' ? 'rtl' : 'ltr'].map((column) => (
      <Column
        key={column.key}
        id={column.key}
        columnHeaderCellRenderer={header(column)}
        cellRenderer={cell(column)}
      />
    ));
  }, [layout, direction, rows, errors, t]);

  return (
    // Blueprint lays cells out left to right only (tableDirection.ts); each cell's text keeps its own direction.
    <section
      className="sw-bulk-table"
      dir="ltr"
      aria-label={t('configuration.bulk.review.table')}
      data-testid="bulk-review-table"
    >
      <Table
        key={direction}
        numRows={rows.length}
        columnWidths={layout.widths[direction === 'rtl' ? 'rtl' : 'ltr']}
        enableRowHeader={false}
        enableColumnReordering={false}
        enableFocusedCell
        selectionModes={SelectionModes.NONE}
        renderMode={RenderMode.NONE}
        defaultRowHeight={ROW_HEIGHT}
        cellRendererDependencies={[columns]}
      >
        {columns}
      </Table>
    </section>
  );
}
