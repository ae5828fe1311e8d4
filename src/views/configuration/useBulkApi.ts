import { useMemo } from 'react';
import { type BulkApi, createBulkApi } from '../../api/bulkUploads';
import { useSessionActor, useTokenSource } from '../session/SessionProvider';

/**
 * The bulk sub-API's client for this session: the session's token, and its 401/403 handling
 * (the session ends, or goes to /403) like the main client's.
 */
export function useBulkApi(): BulkApi {
  const { getToken } = useTokenSource();
  const session = useSessionActor();
  return useMemo(
    () =>
      createBulkApi({
        getToken,
        onUnauthorized: () => session.send({ type: 'session.unauthorized' }),
        onForbidden: () => session.send({ type: 'session.forbidden' }),
      }),
    [getToken, session],
  );
}
