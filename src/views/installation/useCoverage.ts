import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Simulation, type Suggestion, simulateCoverage, suggestAnchors } from '../../api/installation';
import { INSTALLATION_LIMITS } from '../../domain/schemas/installation';
import { reportError } from '../maps/mapsErrors';
import { useApi } from '../session/SessionProvider';

/** The cell sizes offered (metres): fine enough to see a doorway, coarse enough for a large floor. */
export const CELL_SIZES_M = [0.5, 1, 2, 5] as const;

export interface CoverageResult {
  readonly simulation: Simulation;
  /** The plan it was simulated for (planSignature); another plan makes it out of date. */
  readonly signature: string;
  readonly cellSizeM: number;
}

export interface SuggestionRound {
  readonly suggestions: readonly Suggestion[];
  /** The one offered now; the ones before it were accepted or skipped. */
  readonly index: number;
}

export interface Coverage {
  readonly cellSizeM: number;
  setCellSizeM(size: number): void;
  readonly result: CoverageResult | null;
  /** The shown result was simulated for another plan than the floor's now. */
  readonly outOfDate: boolean;
  readonly simulating: boolean;
  simulate(): void;
  readonly suggestCount: number;
  setSuggestCount(count: number): void;
  readonly suggesting: boolean;
  suggest(): void;
  readonly round: SuggestionRound | null;
  /** The suggestion offered now, or null when none is left. */
  readonly offered: Suggestion | null;
  /** Moves to the next suggestion (after an accept or a skip). */
  next(): void;
  clearSuggestions(): void;
}

/**
 * The coverage simulation of a floor and the suggested placements. A result stays shown until it
 * is simulated again; when the plan changes (`signature`) it is marked out of date, not dropped.
 */
export function useCoverage(floorId: number, signature: string): Coverage {
  const { t } = useTranslation();
  const api = useApi();
  const [cellSizeM, setCellSizeM] = useState<number>(INSTALLATION_LIMITS.defaultCellSizeM);
  const [result, setResult] = useState<CoverageResult | null>(null);
  const [suggestCount, setSuggestCount] = useState(3);
  const [round, setRound] = useState<SuggestionRound | null>(null);

  const simulation = useMutation({
    mutationFn: (body: { cellSizeM: number; signature: string }) =>
      simulateCoverage(api, { floor_id: floorId, cell_size_m: body.cellSizeM }),
    onSuccess: (answer, body) =>
      setResult({ simulation: answer, signature: body.signature, cellSizeM: body.cellSizeM }),
    onError: (error) => reportError(error, t('common.somethingWentWrong')),
  });
  const suggestion = useMutation({
    mutationFn: (body: { count: number; cellSizeM: number }) =>
      suggestAnchors(api, { floor_id: floorId, count: body.count, cell_size_m: Math.max(body.cellSizeM, 1) }),
    onSuccess: (suggestions) => setRound({ suggestions, index: 0 }),
    onError: (error) => reportError(error, t('common.somethingWentWrong')),
  });

  const offered = round ? (round.suggestions[round.index] ?? null) : null;
  return {
    cellSizeM,
    setCellSizeM,
    result,
    outOfDate: result !== null && result.signature !== signature,
    simulating: simulation.isPending,
    simulate: () => simulation.mutate({ cellSizeM, signature }),
    suggestCount,
    setSuggestCount,
    suggesting: suggestion.isPending,
    suggest: () => suggestion.mutate({ count: suggestCount, cellSizeM }),
    round,
    offered,
    next: () => setRound((now) => (now ? { ...now, index: now.index + 1 } : now)),
    clearSuggestions: () => setRound(null),
  };
}
