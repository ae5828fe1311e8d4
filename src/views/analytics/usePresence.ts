import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { gatewayQueryOptions } from '../../api/gateway';
import type { CubeRow, PresenceQuery } from './analyticsQueries';

export interface PresenceResult {
  readonly rows: readonly CubeRow[];
  /** Nothing to show yet (a new range keeps the previous rows on screen while it loads). */
  readonly loading: boolean;
  readonly error: boolean;
}

const NO_ROWS: readonly CubeRow[] = [];

/** One gateway query's rows; a changed range keeps the previous answer until the new one arrives. */
export function usePresence(query: PresenceQuery): PresenceResult {
  const result = useQuery({ ...gatewayQueryOptions(query), placeholderData: keepPreviousData });
  return {
    rows: (result.data?.data as readonly CubeRow[] | undefined) ?? NO_ROWS,
    loading: result.isPending,
    error: result.isError,
  };
}
