import { Icon } from '@blueprintjs/core';
import './sortHeader.css';

export interface SortHeaderButtonProps {
  label: string;
  /** How the table is sorted by this column now; null when it is sorted by another. */
  direction: 'asc' | 'desc' | null;
  testId: string;
  /** The label with the sort state in words, for screen readers; the label alone when left out. */
  ariaLabel?: string;
  onSort: () => void;
}

/**
 * A sortable column's header in a Blueprint Table: a real button (click, Enter, Space) with the
 * label cut by an ellipsis and an arrow showing the order.
 */
export function SortHeaderButton({ label, direction, testId, ariaLabel, onSort }: SortHeaderButtonProps) {
  return (
    <button
      type="button"
      className="sw-sort-header"
      data-testid={testId}
      data-sort={direction ?? 'none'}
      aria-label={ariaLabel}
      title={label}
      onClick={onSort}
    >
      <span className="sw-sort-header-label">{label}</span>
      <Icon
        icon={direction === null ? 'double-caret-vertical' : direction === 'asc' ? 'sort-asc' : 'sort-desc'}
        size={12}
      />
    </button>
  );
}
