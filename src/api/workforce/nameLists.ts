import { queryOptions, useQuery } from '@tanstack/react-query';
import { type NamedItem, NamedItemSchema } from '../../domain/schemas/workforce';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';
import type { NameListKind } from '../queryParams';
import { byName } from './byName';

export type { NamedItem, NameListKind };

export async function fetchNameList(
  api: ApiClient,
  siteId: number,
  kind: NameListKind,
  signal?: AbortSignal,
): Promise<NamedItem[]> {
  const { data } = await api.list(`/sites/${siteId}/${kind}`, NamedItemSchema, { signal });
  // The server sorts name,asc already; crews have no promised order, so sort them the same way.
  return [...data].sort(byName);
}

export function createNamedItem(api: ApiClient, siteId: number, kind: NameListKind, name: string) {
  return api.post(`/sites/${siteId}/${kind}`, { name: name.trim() }, NamedItemSchema);
}

export function editNamedItem(api: ApiClient, siteId: number, kind: NameListKind, id: number, name: string) {
  return api.post(`/sites/${siteId}/${kind}/${id}`, { name: name.trim() }, NamedItemSchema);
}

export function nameListQuery(api: ApiClient, siteId: number, kind: NameListKind) {
  return queryOptions({
    queryKey: queryKeys.workforce.nameList(siteId, kind),
    queryFn: ({ signal }) => fetchNameList(api, siteId, kind, signal),
  });
}

export function useNameList(api: ApiClient, siteId: number, kind: NameListKind) {
  return useQuery(nameListQuery(api, siteId, kind));
}
