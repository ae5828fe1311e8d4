import { FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  type IncidentStatus,
  type IncidentType,
} from '../../../domain/incidents';

export interface IncidentFilterValues {
  from: string;
  to: string;
  status: IncidentStatus | null;
  type: IncidentType | null;
}

interface IncidentFiltersProps {
  value: IncidentFilterValues;
  onChange(next: IncidentFilterValues): void;
}

const ALL = '';

/** The date range (whole days), status and type of the incidents list. */
export function IncidentFilters({ value, onChange }: IncidentFiltersProps) {
  const { t } = useTranslation();
  return (
    <div className="sw-safety-filters" data-testid="incident-filters">
      <FormGroup label={t('safety.incidents.from')} labelFor="incidents-from" inline>
        <InputGroup
          id="incidents-from"
          type="date"
          value={value.from}
          max={value.to}
          onValueChange={(from) => from && onChange({ ...value, from })}
        />
      </FormGroup>
      <FormGroup label={t('safety.incidents.to')} labelFor="incidents-to" inline>
        <InputGroup
          id="incidents-to"
          type="date"
          value={value.to}
          min={value.from}
          onValueChange={(to) => to && onChange({ ...value, to })}
        />
      </FormGroup>
      <FormGroup label={t('safety.incidents.status')} labelFor="incidents-status" inline>
        <HTMLSelect
          id="incidents-status"
          value={value.status ?? ALL}
          onChange={(event) =>
            onChange({ ...value, status: (event.currentTarget.value || null) as IncidentStatus | null })
          }
          options={[
            { value: ALL, label: t('safety.incidents.allStatuses') },
            ...INCIDENT_STATUSES.map((status) => ({ value: status, label: t(`safety.status.${status}`) })),
          ]}
        />
      </FormGroup>
      <FormGroup label={t('safety.incidents.type')} labelFor="incidents-type" inline>
        <HTMLSelect
          id="incidents-type"
          value={value.type ?? ALL}
          onChange={(event) =>
            onChange({ ...value, type: (event.currentTarget.value || null) as IncidentType | null })
          }
          options={[
            { value: ALL, label: t('safety.incidents.allTypes') },
            ...INCIDENT_TYPES.map((type) => ({ value: type, label: t(`safety.type.${type}`) })),
          ]}
        />
      </FormGroup>
    </div>
  );
}
