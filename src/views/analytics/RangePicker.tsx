import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { DayRange } from './analyticsRange';

interface RangePickerProps {
  value: DayRange;
  onChange(next: DayRange): void;
  /** Prefix of the inputs' ids and test ids, one per screen. */
  idPrefix: string;
}

/** Two whole days, both included, in the site's calendar; an end before the start is not taken. */
export function RangePicker({ value, onChange, idPrefix }: RangePickerProps) {
  const { t } = useTranslation();
  return (
    <div className="sw-analytics-range" data-testid={`${idPrefix}-range`}>
      <FormGroup label={t('analytics.range.from')} labelFor={`${idPrefix}-from`} inline>
        <InputGroup
          id={`${idPrefix}-from`}
          data-testid={`${idPrefix}-from`}
          type="date"
          value={value.from}
          max={value.to}
          onValueChange={(from) => from && from <= value.to && onChange({ ...value, from })}
        />
      </FormGroup>
      <FormGroup label={t('analytics.range.to')} labelFor={`${idPrefix}-to`} inline>
        <InputGroup
          id={`${idPrefix}-to`}
          data-testid={`${idPrefix}-to`}
          type="date"
          value={value.to}
          min={value.from}
          onValueChange={(to) => to && to >= value.from && onChange({ ...value, to })}
        />
      </FormGroup>
    </div>
  );
}
