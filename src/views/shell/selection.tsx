import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { buildingsQuery, clientsQuery, sitesQuery, withSite } from '../../api/sites';
import type { Building, Client, Site } from '../../domain/user';
import { useApi, useSession } from '../session/SessionProvider';
import { findById, pickId } from './selectionRules';

/** The client, site and building the console is looking at, with the lists they come from. */
export interface Selection {
  clients: Client[];
  sites: Site[];
  buildings: Building[];
  client: Client | null;
  site: Site | null;
  building: Building | null;
  loading: { clients: boolean; sites: boolean; buildings: boolean };
  selectClient(clientId: number): void;
  selectSite(siteId: number): void;
  selectBuilding(buildingId: number): void;
  /** A newly created site joins its client's list and becomes the selected one (spec §3). */
  siteCreated(site: Site): void;
}

const SelectionContext = createContext<Selection | null>(null);

const EMPTY: never[] = [];

/**
 * Holds only what the user picked; everything else is derived. Initial client and site come
 * from the stored user's `last_client_id` / `last_site_id` (so the selection survives a reload),
 * else the first of each list; the first building is selected once buildings load.
 */
export function SelectionProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, rememberSelection } = useSession();
  const [pickedClientId, setPickedClientId] = useState<number | null>(null);
  const [pickedSiteId, setPickedSiteId] = useState<number | null>(null);
  const [pickedBuildingId, setPickedBuildingId] = useState<number | null>(null);
  // The client of the latest pick, so a slow site list for an earlier pick is not remembered.
  const latestClientPick = useRef<number | null>(null);

  const userId = user?.id ?? null;
  const clients = useQuery({ ...clientsQuery(api, userId ?? 0), enabled: userId !== null });
  const clientId = pickId(clients.data, pickedClientId, user?.last_client_id);

  const sites = useQuery({ ...sitesQuery(api, clientId ?? 0), enabled: clientId !== null });
  const rememberedSiteId = clientId === user?.last_client_id ? user?.last_site_id : null;
  const siteId = pickId(sites.data, pickedSiteId, rememberedSiteId);

  const buildings = useQuery({ ...buildingsQuery(api, siteId ?? 0), enabled: siteId !== null });
  const buildingId = pickId(buildings.data, pickedBuildingId);

  const selectClient = useCallback(
    (nextClientId: number) => {
      latestClientPick.current = nextClientId;
      setPickedClientId(nextClientId);
      setPickedSiteId(null);
      setPickedBuildingId(null);
      // The client's first site becomes the selection; remember both once it is known.
      queryClient
        .fetchQuery(sitesQuery(api, nextClientId))
        .then((list) => list[0]?.id ?? null)
        .catch(() => null)
        .then((firstSiteId) => {
          if (latestClientPick.current !== nextClientId) return;
          setPickedSiteId(firstSiteId);
          rememberSelection({ clientId: nextClientId, siteId: firstSiteId });
        });
    },
    [api, queryClient, rememberSelection],
  );

  const selectSite = useCallback(
    (nextSiteId: number) => {
      setPickedSiteId(nextSiteId);
      setPickedBuildingId(null);
      rememberSelection({ clientId, siteId: nextSiteId });
    },
    [clientId, rememberSelection],
  );

  const siteCreated = useCallback(
    (site: Site) => {
      queryClient.setQueryData(sitesQuery(api, site.client_id).queryKey, (known) => withSite(known, site));
      latestClientPick.current = site.client_id;
      setPickedClientId(site.client_id);
      setPickedSiteId(site.id);
      setPickedBuildingId(null);
      rememberSelection({ clientId: site.client_id, siteId: site.id });
    },
    [api, queryClient, rememberSelection],
  );

  const value = useMemo<Selection>(
    () => ({
      clients: clients.data ?? EMPTY,
      sites: sites.data ?? EMPTY,
      buildings: buildings.data ?? EMPTY,
      client: findById(clients.data, clientId),
      site: findById(sites.data, siteId),
      building: findById(buildings.data, buildingId),
      loading: {
        clients: clients.isPending && userId !== null,
        sites: sites.isPending && clientId !== null,
        buildings: buildings.isPending && siteId !== null,
      },
      selectClient,
      selectSite,
      selectBuilding: setPickedBuildingId,
      siteCreated,
    }),
    [
      clients.data,
      clients.isPending,
      sites.data,
      sites.isPending,
      buildings.data,
      buildings.isPending,
      userId,
      clientId,
      siteId,
      buildingId,
      selectClient,
      selectSite,
      siteCreated,
    ],
  );

  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error('useSelection must be used inside <SelectionProvider>');
  return selection;
}
