import { Button, Card, H5, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { BatteryForecast, NodeInformation } from '../../domain/schemas/nodes';
import type { ReplayedNode } from '../../streams/nodePlaybackWindows';
import { DISPLACEMENT_COLOUR, HEALTH_COLOURS, UNKNOWN_COLOUR } from '../canvas/layers/nodeStyle';
import { cssColour } from '../canvas/layers/TrailsLayer';
import { formatFullDate, formatTwoDecimals, formatWhole } from '../shared/nodeFormat';
import { HEALTH_INTENT, problemWords } from '../shared/nodeProblems';

/** What the details show of the picked node: the live reply's node, or the replayed one. */
export type NodeDetails =
  | { readonly kind: 'live'; readonly node: NodeInformation }
  | { readonly kind: 'replay'; readonly node: ReplayedNode };

/** Only read for a low battery, which the map words itself. */
const NO_FORECAST: BatteryForecast = {
  basis: 'tooShort',
  reachesCutoffAt: null,
  voltsPerDay: null,
  cutoffVolts: 0,
};

const Swatch = ({
  colour,
  shape = 'disc',
}: {
  colour: number;
  shape?: 'disc' | 'square' | 'ring' | 'line';
}) => (
  <span
    className={`sw-mmap-swatch sw-mmap-swatch--${shape}`}
    style={{ color: cssColour(colour) }}
    aria-hidden
  />
);

/** How the map draws nodes and links, in the language shown. */
export function MaintenanceMapLegend({ links }: { links: boolean }) {
  const { t } = useTranslation();
  const states = [
    ['good', HEALTH_COLOURS.ok],
    ['low', HEALTH_COLOURS.warning],
    ['critical', HEALTH_COLOURS.bad],
    ['unknown', UNKNOWN_COLOUR],
  ] as const;
  return (
    <Card compact className="sw-mmap-legend" data-testid="mmap-legend">
      <H5>{t('maintenance.map.legend.title')}</H5>
      <ul>
        <li>
          <Swatch colour={UNKNOWN_COLOUR} /> {t('maintenance.map.legend.anchor')}{' '}
          <Swatch colour={UNKNOWN_COLOUR} shape="square" /> {t('maintenance.map.legend.sink')}
        </li>
        <li>{t('maintenance.map.legend.fill')}</li>
        <li className="sw-mmap-legend-row">
          {states.map(([word, colour]) => (
            <span key={word}>
              <Swatch colour={colour} /> {t(`maintenance.map.legend.${word}`)}
            </span>
          ))}
        </li>
        <li>{t('maintenance.map.legend.ring')}</li>
        <li className="sw-mmap-legend-row">
          {(['ok', 'warning', 'bad'] as const).map((state) => (
            <span key={state}>
              <Swatch colour={HEALTH_COLOURS[state]} shape="ring" /> {t(`nodes.health.${state}`)}
            </span>
          ))}
        </li>
        <li>
          <Swatch colour={DISPLACEMENT_COLOUR} shape="line" /> {t('maintenance.map.legend.moved')}
        </li>
        {links && (
          <>
            <li>{t('maintenance.map.legend.links')}</li>
            <li className="sw-mmap-legend-row">
              <span>
                <Swatch colour={HEALTH_COLOURS.ok} shape="line" /> {t('maintenance.map.legend.linkGood')}
              </span>
              <span>
                <Swatch colour={HEALTH_COLOURS.warning} shape="line" /> {t('maintenance.map.legend.linkWeak')}
              </span>
              <span>
                <Swatch colour={HEALTH_COLOURS.bad} shape="line" /> {t('maintenance.map.legend.linkBad')}
              </span>
            </li>
            <li>
              <Swatch colour={HEALTH_COLOURS.bad} shape="ring" /> {t('maintenance.map.legend.isolated')}
            </li>
          </>
        )}
      </ul>
    </Card>
  );
}

interface DetailsProps {
  details: NodeDetails;
  /** Node ids by inventory id, to name the links heard. */
  names: ReadonlyMap<number, string>;
  timeZone: string;
  onClose(): void;
}

/** The picked node: its health, measures and the links it hears, live or at the playhead. */
export function MaintenanceMapDetails({ details, names, timeZone, onClose }: DetailsProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { node } = details;
  const reading = node.reading;
  const health = details.kind === 'live' ? details.node.health.state : (details.node.reading?.health ?? null);
  const links =
    details.kind === 'live'
      ? (details.node.reading?.neighbors ?? []).map((l) => ({ name: l.nodeId, quality: l.linkQuality }))
      : (details.node.reading?.links ?? []).map((l) => ({
          name: names.get(l.key) ?? String(l.key),
          quality: l.quality,
        }));
  const tsMs =
    details.kind === 'live'
      ? details.node.reading
        ? Date.parse(details.node.reading.ts)
        : null
      : (details.node.reading?.tsMs ?? null);
  const rows: [string, string][] = [];
  if (reading) {
    rows.push(
      [
        t('maintenance.map.details.battery'),
        t('maintenance.map.details.volts', { volts: formatTwoDecimals(reading.batteryVoltage) }),
      ],
      [
        t('maintenance.map.details.linkQuality'),
        t('maintenance.map.details.quality', { quality: formatWhole(reading.linkQuality) }),
      ],
      [
        t('maintenance.map.details.buffer'),
        t('maintenance.map.details.percent', { percent: formatWhole(reading.bufferUsage) }),
      ],
      [
        t('maintenance.map.details.displacement'),
        reading.displacementError === null
          ? t('maintenance.map.details.notPlaced')
          : t('maintenance.map.details.metres', { metres: formatTwoDecimals(reading.displacementError) }),
      ],
    );
  }
  if (tsMs !== null)
    rows.push([t('maintenance.map.details.reported'), formatFullDate(tsMs, timeZone, language)]);
  return (
    <Card compact className="sw-mmap-details" data-testid="mmap-details" data-node-id={node.nodeId}>
      <div className="sw-mmap-details-head">
        <H5>{node.nodeId}</H5>
        <Tag minimal>{t(`nodes.type.${node.type}`)}</Tag>
        {health && (
          <Tag intent={HEALTH_INTENT[health]} data-testid="mmap-details-health">
            {t(`nodes.health.${health}`)}
          </Tag>
        )}
        <Button
          variant="minimal"
          size="small"
          icon="cross"
          aria-label={t('maintenance.map.details.close')}
          onClick={onClose}
          data-testid="mmap-details-close"
        />
      </div>
      {!reading && (
        <p>
          {details.kind === 'live'
            ? t('maintenance.map.details.neverReported')
            : t('maintenance.map.details.noReport')}
        </p>
      )}
      <dl className="sw-mmap-details-list">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={`mmap-details-${label}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {details.kind === 'live' && details.node.health.problems.length > 0 && (
        <ul className="sw-mmap-details-problems" data-testid="mmap-details-problems">
          {details.node.health.problems.map((problem) => (
            <li key={problem.kind}>
              {/* The map has no battery forecast (the toolkit has): the low battery says its volts only. */}
              {problem.kind === 'lowBattery'
                ? `${t('nodes.problemKind.lowBattery')}: ${t('maintenance.map.details.volts', { volts: formatTwoDecimals(problem.value ?? 0) })}`
                : problemWords(problem, NO_FORECAST, { t, language, timeZone })}
            </li>
          ))}
        </ul>
      )}
      {links.length > 0 && (
        <>
          <div className="sw-mmap-details-label">{t('maintenance.map.details.links')}</div>
          <ul className="sw-mmap-details-links">
            {[...links]
              .sort((a, b) => b.quality - a.quality)
              .map((link) => (
                <li key={link.name}>
                  <span dir="ltr">{link.name}</span> · {formatWhole(link.quality)}
                </li>
              ))}
          </ul>
        </>
      )}
    </Card>
  );
}
