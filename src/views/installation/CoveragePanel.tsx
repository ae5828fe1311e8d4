import {
  Button,
  Callout,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  NumericInput,
  Tag,
} from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type MeasuredLink, measuredLinksQuery } from '../../api/installation';
import { INSTALLATION_LIMITS } from '../../domain/schemas/installation';
import { COVERAGE_COLOURS, type CoverageCounts, coverageCounts } from '../canvas/layers/coverageStyle';
import { useApi } from '../session/SessionProvider';
import { formatCount } from '../shared/nodeFormat';
import { CELL_SIZES_M, type Coverage } from './useCoverage';

const hex = (colour: number) => `#${colour.toString(16).padStart(6, '0')}`;
const percent = (value: number) => `${formatCount(Math.round(value * 10) / 10)} %`;

interface CoveragePanelProps {
  coverage: Coverage;
  canWrite: boolean;
  /** Accepts the suggestion offered now: saved as a planning anchor. */
  onAccept(): void;
  accepting: boolean;
}

/**
 * "Simulate coverage" with its cell size, the legend of the coverage layer (what each colour is,
 * the share of the floor covered, cells and anchors), and "Suggest N anchors" offered one at a
 * time with Accept and Skip.
 */
export function CoveragePanel({ coverage, canWrite, onAccept, accepting }: CoveragePanelProps) {
  const { t } = useTranslation();
  const { result, round, offered } = coverage;
  return (
    <section
      className="sw-install-card"
      data-testid="coverage-panel"
      aria-labelledby="sw-install-coverage-title"
    >
      <div className="sw-install-card-head">
        <h2 id="sw-install-coverage-title">{t('installation.coverage.title')}</h2>
      </div>
      <div className="sw-install-row">
        <FormGroup label={t('installation.coverage.cellSize')} labelFor="sw-install-cell" inline>
          <HTMLSelect
            id="sw-install-cell"
            data-testid="coverage-cell-size"
            value={String(coverage.cellSizeM)}
            onChange={(e) => coverage.setCellSizeM(Number(e.currentTarget.value))}
          >
            {CELL_SIZES_M.map((size) => (
              <option key={size} value={size}>
                {t('installation.coverage.metres', { value: formatCount(size) })}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <Button
          intent="primary"
          icon="heatmap"
          data-testid="coverage-simulate"
          loading={coverage.simulating}
          onClick={coverage.simulate}
        >
          {t('installation.coverage.simulate')}
        </Button>
      </div>
      <div aria-live="polite" data-testid="coverage-status" data-busy={coverage.simulating || undefined}>
        {coverage.simulating && <p className="sw-install-hint">{t('installation.coverage.simulating')}</p>}
      </div>
      {result && (
        <CoverageLegend
          coveredPercent={result.simulation.covered_percent}
          counts={coverageCounts(result.simulation)}
          anchors={result.simulation.anchors.length}
          outOfDate={coverage.outOfDate}
        />
      )}
      {canWrite && (
        <div className="sw-install-suggest">
          <div className="sw-install-row">
            <FormGroup
              label={t('installation.coverage.suggestCount')}
              labelFor="sw-install-suggest-count"
              inline
            >
              <NumericInput
                id="sw-install-suggest-count"
                data-testid="suggest-count"
                dir="ltr"
                min={INSTALLATION_LIMITS.suggestCountMin}
                max={INSTALLATION_LIMITS.suggestCountMax}
                clampValueOnBlur
                style={{ width: '4em' }}
                value={coverage.suggestCount}
                onValueChange={(value) =>
                  Number.isInteger(value) && value >= 1 && coverage.setSuggestCount(value)
                }
              />
            </FormGroup>
            <Button
              icon="lightbulb"
              data-testid="suggest"
              loading={coverage.suggesting}
              onClick={coverage.suggest}
            >
              {t('installation.coverage.suggest', { count: coverage.suggestCount })}
            </Button>
          </div>
          {round && (
            <div className="sw-install-offer" data-testid="suggestion" aria-live="polite">
              {offered ? (
                <>
                  <p>
                    {t('installation.coverage.offer', {
                      index: round.index + 1,
                      count: round.suggestions.length,
                      percent: percent(offered.covered_percent_after),
                    })}
                  </p>
                  <div className="sw-install-row">
                    <Button
                      intent="success"
                      icon="tick"
                      data-testid="suggestion-accept"
                      loading={accepting}
                      onClick={onAccept}
                    >
                      {t('installation.coverage.accept')}
                    </Button>
                    <Button icon="arrow-right" data-testid="suggestion-skip" onClick={coverage.next}>
                      {t('installation.coverage.skip')}
                    </Button>
                    <Button minimal icon="cross" onClick={coverage.clearSuggestions}>
                      {t('installation.coverage.stopSuggesting')}
                    </Button>
                  </div>
                </>
              ) : (
                <div className="sw-install-row">
                  <span>
                    {round.suggestions.length === 0
                      ? t('installation.coverage.noSuggestions')
                      : t('installation.coverage.suggestionsDone')}
                  </span>
                  <Button minimal icon="cross" onClick={coverage.clearSuggestions}>
                    {t('installation.coverage.close')}
                  </Button>
                </div>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}

interface CoverageLegendProps {
  coveredPercent: number;
  counts: CoverageCounts;
  anchors: number;
  outOfDate: boolean;
}

/** What the coverage layer's colours mean, and the figures of the simulation shown. */
export function CoverageLegend({ coveredPercent, counts, anchors, outOfDate }: CoverageLegendProps) {
  const { t } = useTranslation();
  return (
    <div
      className="sw-install-legend"
      data-testid="coverage-legend"
      data-out-of-date={outOfDate || undefined}
    >
      {outOfDate && (
        <Callout intent="warning" compact icon="outdated" data-testid="coverage-out-of-date">
          {t('installation.coverage.outOfDate')}
        </Callout>
      )}
      <p className="sw-install-covered">
        <span>{t('installation.coverage.covered')}</span>{' '}
        <strong data-testid="coverage-percent" dir="ltr">
          {percent(coveredPercent)}
        </strong>
      </p>
      <ul>
        {(['positioned', 'poorGeometry', 'tooFew'] as const).map((cls) => (
          <li key={cls}>
            <span
              className="sw-install-swatch"
              style={{ background: hex(COVERAGE_COLOURS[cls]) }}
              aria-hidden="true"
            />
            {t(`installation.coverage.class.${cls}`)}{' '}
            <span className="sw-install-figure" dir="ltr">
              {formatCount(counts[cls])}
            </span>
          </li>
        ))}
        <li>
          <span className="sw-install-swatch sw-install-swatch--none" aria-hidden="true" />
          {t('installation.coverage.class.none')}{' '}
          <span className="sw-install-figure" dir="ltr">
            {formatCount(counts.none)}
          </span>
        </li>
      </ul>
      <p className="sw-install-hint">
        {t('installation.coverage.figures', {
          cells: formatCount(counts.cells),
          anchors: formatCount(anchors),
        })}
      </p>
    </div>
  );
}

/** A difference larger than this (dB, either way) is flagged: the model is off there (a wall missed, a wrong material). */
export const DIFFERENCE_WARNING_DB = 6;
export const DIFFERENCE_DANGER_DB = 12;

interface MeasuredLinksProps {
  floorId: number;
  /** A node's name by its inventory id. */
  nameOf(id: number): string;
}

/** The neighbour links the floor's nodes reported last, measured against the simulation's prediction. */
export function MeasuredLinks({ floorId, nameOf }: MeasuredLinksProps) {
  const { t } = useTranslation();
  const api = useApi();
  const links = useQuery(measuredLinksQuery(api, floorId));
  const dB = (value: number | null) => (value === null ? '—' : formatCount(Math.round(value * 10) / 10));
  const intentOf = (link: MeasuredLink) => {
    const off = link.difference_db === null ? 0 : Math.abs(link.difference_db);
    return off >= DIFFERENCE_DANGER_DB ? 'danger' : off >= DIFFERENCE_WARNING_DB ? 'warning' : 'none';
  };
  return (
    <section
      className="sw-install-card"
      data-testid="measured-links"
      aria-labelledby="sw-install-measured-title"
    >
      <div className="sw-install-card-head">
        <h2 id="sw-install-measured-title">{t('installation.coverage.measuredTitle')}</h2>
        <Button
          icon="refresh"
          data-testid="measured-load"
          loading={links.isFetching}
          onClick={() => void links.refetch()}
        >
          {links.data ? t('installation.coverage.measuredReload') : t('installation.coverage.measuredLoad')}
        </Button>
      </div>
      {links.isError && (
        <Callout intent="danger" compact>
          {t('installation.coverage.measuredError')}
        </Callout>
      )}
      {links.data &&
        (links.data.length === 0 ? (
          <NonIdealState icon="graph" description={t('installation.coverage.measuredNone')} />
        ) : (
          <div className="sw-install-table">
            <HTMLTable compact striped>
              <thead>
                <tr>
                  <th>{t('installation.coverage.from')}</th>
                  <th>{t('installation.coverage.to')}</th>
                  <th>{t('installation.coverage.distance')}</th>
                  <th>{t('installation.coverage.measured')}</th>
                  <th>{t('installation.coverage.predicted')}</th>
                  <th>{t('installation.coverage.difference')}</th>
                  <th>{t('installation.coverage.walls')}</th>
                </tr>
              </thead>
              <tbody>
                {links.data.map((link) => {
                  const intent = intentOf(link);
                  return (
                    <tr
                      key={`${link.from_node_id}-${link.to_node_id}`}
                      data-testid="measured-row"
                      data-intent={intent}
                    >
                      <td dir="ltr">{nameOf(link.from_node_id)}</td>
                      <td dir="ltr">{nameOf(link.to_node_id)}</td>
                      <td dir="ltr">{formatCount(Math.round(link.distance_m * 10) / 10)}</td>
                      <td dir="ltr">{dB(link.measured_rssi_dbm)}</td>
                      <td dir="ltr">{dB(link.predicted_rssi_dbm)}</td>
                      <td>
                        {link.difference_db === null ? (
                          '—'
                        ) : (
                          <Tag minimal={intent === 'none'} intent={intent} dir="ltr">
                            {link.difference_db > 0 ? '+' : ''}
                            {dB(link.difference_db)}
                          </Tag>
                        )}
                      </td>
                      <td dir="ltr">{formatCount(link.walls_crossed)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
          </div>
        ))}
    </section>
  );
}
