import { useTranslation } from 'react-i18next';
import { EVACUATION_COLOURS, type EvacuationCounts } from '../../../domain/evacuation';
import { formatCount } from '../../../domain/numberFormat';
import { cssColour } from './evacuationFormat';

/** The counters in the order an officer reads them; the colour of each is its markers' colour. */
const COUNTERS: { key: keyof EvacuationCounts; colour: string | null }[] = [
  { key: 'included', colour: null },
  { key: 'safe', colour: cssColour(EVACUATION_COLOURS.safe) },
  { key: 'manualAcknowledge', colour: cssColour(EVACUATION_COLOURS.manualAcknowledge) },
  { key: 'autoAcknowledge', colour: cssColour(EVACUATION_COLOURS.autoAcknowledge) },
  { key: 'offline', colour: cssColour(EVACUATION_COLOURS.offline) },
  { key: 'stillInside', colour: null },
];

/** Big live counters, readable from across a room (words beside colours, never colour alone). */
export function EvacuationCounters({ counts }: { counts: EvacuationCounts }) {
  const { t } = useTranslation();
  return (
    <dl className="sw-evac-counters" data-testid="evacuation-counters" aria-live="polite">
      {COUNTERS.map(({ key, colour }) => (
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
