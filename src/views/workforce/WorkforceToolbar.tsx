import { Button, InputGroup, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

interface WorkforceToolbarProps {
  search: string;
  onSearch(value: string): void;
  /** The count label, absent until the list has loaded. */
  count: string | null;
  /** The create button's text, absent when the user may not create. */
  newText: string | null;
  onNew(): void;
}

/** Search, count and create above a workforce list (crews, shifts, roles, subcontractors). */
export function WorkforceToolbar({ search, onSearch, count, newText, onNew }: WorkforceToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="sw-workforce-toolbar">
      <InputGroup
        type="search"
        leftIcon="search"
        placeholder={t('workforce.search')}
        value={search}
        onValueChange={onSearch}
        data-testid="workforce-search"
        className="sw-workforce-search"
      />
      {count !== null && (
        <Tag minimal round data-testid="workforce-count">
          {count}
        </Tag>
      )}
      {newText !== null && (
        <Button intent="primary" icon="add" text={newText} data-testid="workforce-new" onClick={onNew} />
      )}
    </div>
  );
}
