import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DayRange, rangeDays } from './analyticsRange';

interface RangePickerProps {
  value: DayRange;
  onChange(next: DayRange): void;
  /** Prefix of the inputs' ids and test ids, one per screen. */
  idPrefix: string;
  /**
   * The most days the range may span (both ends included). A longer choice is not taken; the
   * server's own words say why, instead of a panel error after the round trip.
   */
  maxDays?: number;
  /** The message shown for a choice longer than `maxDays`. */
  tooLongMessage?: string;
}

/** Two whole days, both included, in the site's calendar; an end before the start is not taken. */
export function RangePicker({ value, onChange, idPrefix, maxDays, tooLongMessage }: RangePickerProps) {
  const { t } = useTranslation();
  const [tooLong, setTooLong] = useState(false);
  const pick = (next: DayRange) => {
    if (next.from > next.to) return;
    const refused = maxDays !== undefined && rangeDays(next) > maxDays;
    setTooLong(refused);
    if (!refused) onChange(next);
  };
  return (
    <div className="sw-analytics-range" data-testid={`${idPrefix}-range`}>
      <FormGroup label={t('analytics.range.from')} labelFor={`${idPrefix}-from`} inline>
        <InputGroup
          id={`${idPrefix}-from`}
          data-testid={`${idPrefix}-from`}
          type="date"
          value={value.from}
          max={value.to}
          intent={tooLong ? 'danger' : 'none'}
          onValueChange={(from) => from && pick({ ...value, from })}
        />
      </FormGroup>
      <FormGroup label={t('analytics.range.to')} labelFor={`${idPrefix}-to`} inline>
        <InputGroup
          id={`${idPrefix}-to`}
          data-testid={`${idPrefix}-to`}
          type="date"
          value={value.to}
          min={value.from}
          intent={tooLong ? 'danger' : 'none'}
          onValueChange={(to) => to && pick({ ...value, to })}
        />
      </FormGroup>
      {tooLong && (
        <span className="sw-analytics-range-error" role="alert" data-testid={`${idPrefix}-range-error`}>
          {tooLongMessage}
        </span>
      )}
    </div>
  );
}
