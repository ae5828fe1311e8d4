import { useTranslation } from 'react-i18next';
import { EVACUATION_COLOURS, type EvacuationCounts } from '../../../domain/evacuation';
import { formatCount } from '../../../domain/numberFormat';
import { cssColour } from './evacuationFormat';

/** The counters in the order an officer reads them; the colour of each is its markers' colour. */
const COUNTERS: { key: keyof EvacuationCounts; colour: string | null; always?: true }[] = [
  { key: 'included', colour: null, always: true },
  { key: 'safe', colour: cssColour(EVACUATION_COLOURS.safe), always: true },
  { key: 'marked', colour: cssColour(EVACUATION_COLOURS.marked), always: true },
  { key: 'reEntered', colour: cssColour(EVACUATION_COLOURS.reEntered), always: true },
  { key: 'manualAcknowledge', colour: cssColour(EVACUATION_COLOURS.manualAcknowledge), always: true },
  { key: 'autoAcknowledge', colour: cssColour(EVACUATION_COLOURS.autoAcknowledge), always: true },
  { key: 'offline', colour: cssColour(EVACUATION_COLOURS.offline), always: true },
  { key: 'offlineBeforeAlarm', colour: cssColour(EVACUATION_COLOURS.offlineBeforeAlarm) },
  { key: 'noHelmet', colour: cssColour(EVACUATION_COLOURS.noHelmet) },
  { key: 'stillInside', colour: null, always: true },
  { key: 'alarmUndelivered', colour: null, always: true },
];

/** Big live counters, readable from across a room (words beside colours, never colour alone). */
export function EvacuationCounters({ counts }: { counts: EvacuationCounts }) {
  const { t } = useTranslation();
  return (
    <dl className="sw-evac-counters" data-testid="evacuation-counters" aria-live="polite">
      {COUNTERS.filter(({ key, always }) => always || counts[key] > 0).map(({ key, colour }) => (
        <div
          key={key}
          className={`sw-evac-counter sw-evac-counter--${key}`}
          style={colour ? { borderBlockStartColor: colour } : undefined}
        >
          <dt>
            {colour && <span className="sw-evac-swatch" style={{ background: colour }} aria-hidden="true" />}
            {t(`evacuation.counters.${key}`)}
          </dt>
          <dd data-testid={`evacuation-count-${key}`} data-value={counts[key]}>
            {formatCount(counts[key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}
