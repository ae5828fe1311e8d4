import { InputGroup, Menu, MenuItem, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type WorkerOption, workerOptionsQuery } from '../../api/workforce/assignments';
import { useApi } from '../session/SessionProvider';

/** How long typing pauses before the server is asked. */
const SEARCH_DELAY_MS = 250;

interface WorkerPickerProps {
  siteId: number;
  id: string;
  selected: readonly WorkerOption[];
  invalid: boolean;
  onChange(selected: WorkerOption[]): void;
}

const tagOf = (worker: WorkerOption) => worker.worker_tag_id?.trim() || null;

/**
 * Several workers picked from the server's search (GET workers?search=): each match shows its
 * name and tag; a click adds or removes it; the picked ones stay listed as removable tags.
 */
export function WorkerPicker({ siteId, id, selected, invalid, onChange }: WorkerPickerProps) {
  const { t } = useTranslation();
  const api = useApi();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const options = useQuery(workerOptionsQuery(api, siteId, search));
  const pickedIds = new Set(selected.map((worker) => worker.id));
  const toggle = (worker: WorkerOption) =>
    onChange(
      pickedIds.has(worker.id) ? selected.filter((other) => other.id !== worker.id) : [...selected, worker],
    );

  let results = null;
  if (options.isPending) results = <Spinner size={20} />;
  else if (options.isError)
    results = <NonIdealState icon="error" description={options.error.message} layout="horizontal" />;
  else if (options.data.length === 0)
    results = (
      <NonIdealState
        icon="search"
        description={t('workforce.assign.noWorkers')}
        layout="horizontal"
        className="sw-assign-empty"
      />
    );
  else
    results = (
      <Menu
        className="sw-assign-options"
        aria-label={t('workforce.assign.workers')}
        data-testid="assign-options"
      >
        {options.data.map((worker) => (
          <MenuItem
            key={worker.id}
            roleStructure="listoption"
            selected={pickedIds.has(worker.id)}
            text={worker.name}
            label={tagOf(worker) ?? undefined}
            shouldDismissPopover={false}
            data-testid="assign-option"
            onClick={() => toggle(worker)}
          />
        ))}
      </Menu>
    );

  return (
    <div className="sw-assign-picker">
      <InputGroup
        id={id}
        type="search"
        leftIcon="search"
        placeholder={t('workforce.assign.searchWorkers')}
        value={text}
        intent={invalid ? 'danger' : 'none'}
        rightElement={options.isFetching && !options.isPending ? <Spinner size={16} /> : undefined}
        onValueChange={setText}
        data-testid="assign-search"
      />
      {results}
      {selected.length > 0 && (
        <div className="sw-assign-picked" data-testid="assign-picked">
          {selected.map((worker) => (
            <Tag key={worker.id} minimal round onRemove={() => toggle(worker)}>
              {worker.name}
              {tagOf(worker) && <span className="bp6-text-muted"> · {tagOf(worker)}</span>}
            </Tag>
          ))}
        </div>
      )}
    </div>
  );
}
