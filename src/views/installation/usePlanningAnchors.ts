import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addPlanningAnchor,
  deletePlanningAnchor,
  editPlanningAnchor,
  type PlanningAnchor,
  planningAnchorsQuery,
} from '../../api/installation';
import { queryKeys } from '../../api/queryKeys';
import {
  EMPTY_UNDO,
  lastChange,
  nextPlanningName,
  type PlannedPosition,
  type PlanningChange,
  planningUndo,
  undoRequestOf,
} from '../../domain/planningUndo';
import { reportError } from '../maps/mapsErrors';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';

const NO_ANCHORS: readonly PlanningAnchor[] = [];

/** What the plan's tools are doing on the canvas. */
export type PlanningTool =
  | { readonly kind: 'idle' }
  /** "Add anchor" pressed: the next click on the floor places one. */
  | { readonly kind: 'adding' }
  /** A click placed one: its name is asked for before it is saved. */
  | { readonly kind: 'naming'; readonly at: PlannedPosition; readonly name: string };

export interface PlanningAnchors {
  readonly anchors: readonly PlanningAnchor[];
  readonly loading: boolean;
  readonly selectedId: number | null;
  select(id: number | null): void;
  readonly tool: PlanningTool;
  setTool(tool: PlanningTool): void;
  /** The name a new anchor is offered ("P-NN"). */
  proposedName(): string;
  add(name: string, at: PlannedPosition): Promise<PlanningAnchor | null>;
  move(anchor: PlanningAnchor, to: PlannedPosition): void;
  rename(anchor: PlanningAnchor, name: string): Promise<boolean>;
  remove(anchor: PlanningAnchor): Promise<boolean>;
  /** The change Undo takes back, or null. */
  readonly undoable: PlanningChange | null;
  undo(): void;
  /** A request (add, edit, delete or undo) is on its way. */
  readonly busy: boolean;
}

/**
 * A floor's planning anchors and what the engineer does to them: add, move, rename, delete, each
 * recorded for Undo once the server took it (src/domain/planningUndo.ts), and the selection.
 */
export function usePlanningAnchors(floorId: number): PlanningAnchors {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const listKey = queryKeys.installation.planningAnchors(floorId);
  const list = useQuery(planningAnchorsQuery(api, floorId));
  const anchors = list.data ?? NO_ANCHORS;
  const [undoState, dispatch] = useReducer(planningUndo, EMPTY_UNDO);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [tool, setTool] = useState<PlanningTool>({ kind: 'idle' });

  const stored = useCallback(
    (anchor: PlanningAnchor) =>
      queryClient.setQueryData<PlanningAnchor[]>(listKey, (known) =>
        [...(known ?? []).filter((item) => item.id !== anchor.id), anchor].sort((a, b) =>
          a.anchor_id.localeCompare(b.anchor_id, 'en', { numeric: true }),
        ),
      ),
    [queryClient, listKey],
  );
  const dropped = useCallback(
    (id: number) =>
      queryClient.setQueryData<PlanningAnchor[]>(listKey, (known) => known?.filter((item) => item.id !== id)),
    [queryClient, listKey],
  );
  const failed = (error: unknown) => {
    reportError(error, t('common.somethingWentWrong'));
    // The list may be behind what the server holds (another tab, a lost race): read it again.
    void queryClient.invalidateQueries({ queryKey: listKey });
  };

  const addition = useMutation({
    mutationFn: (body: { name: string; at: PlannedPosition }) =>
      addPlanningAnchor(api, { floor_id: floorId, anchor_id: body.name.trim(), metadata: body.at }),
  });
  const edit = useMutation({
    mutationFn: (body: { id: number; anchor_id?: string; metadata?: PlannedPosition }) =>
      editPlanningAnchor(api, body),
  });
  const deletion = useMutation({ mutationFn: (id: number) => deletePlanningAnchor(api, id) });
  const undoing = useMutation({
    mutationFn: async (change: PlanningChange) => {
      const request = undoRequestOf(change);
      if (request.kind === 'delete') {
        await deletePlanningAnchor(api, request.id);
        return { kind: 'removed', id: request.id } as const;
      }
      if (request.kind === 'edit') {
        const { kind: _kind, ...body } = request;
        return { kind: 'edited', anchor: await editPlanningAnchor(api, body) } as const;
      }
      const anchor = await addPlanningAnchor(api, {
        floor_id: floorId,
        anchor_id: request.anchor_id,
        metadata: request.metadata,
      });
      return { kind: 'recreated', anchor } as const;
    },
  });

  const add = async (name: string, at: PlannedPosition) => {
    try {
      const anchor = await addition.mutateAsync({ name, at });
      stored(anchor);
      dispatch({ type: 'changed', change: { kind: 'add', anchor } });
      setSelectedId(anchor.id);
      void notify({
        message: t('installation.anchors.added', { name: anchor.anchor_id }),
        intent: 'success',
      });
      return anchor;
    } catch (error) {
      failed(error);
      return null;
    }
  };

  const move = (anchor: PlanningAnchor, to: PlannedPosition) => {
    const from = anchor.metadata;
    // Shown where it was dropped at once; put back if the server refuses.
    stored({ ...anchor, metadata: to });
    edit.mutate(
      { id: anchor.id, metadata: to },
      {
        onSuccess: (saved) => {
          stored(saved);
          dispatch({ type: 'changed', change: { kind: 'move', id: anchor.id, from, to: saved.metadata } });
        },
        onError: (error) => {
          stored(anchor);
          failed(error);
        },
      },
    );
  };

  const rename = async (anchor: PlanningAnchor, name: string) => {
    try {
      const saved = await edit.mutateAsync({ id: anchor.id, anchor_id: name.trim() });
      stored(saved);
      dispatch({
        type: 'changed',
        change: { kind: 'rename', id: anchor.id, from: anchor.anchor_id, to: saved.anchor_id },
      });
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };

  const remove = async (anchor: PlanningAnchor) => {
    try {
      await deletion.mutateAsync(anchor.id);
      dropped(anchor.id);
      dispatch({ type: 'changed', change: { kind: 'delete', anchor } });
      if (selectedId === anchor.id) setSelectedId(null);
      void notify({
        message: t('installation.anchors.deleted', { name: anchor.anchor_id }),
        intent: 'success',
      });
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };

  const undoable = lastChange(undoState);
  const undo = () => {
    if (!undoable || undoing.isPending) return;
    undoing.mutate(undoable, {
      onSuccess: (result) => {
        if (result.kind === 'removed') dropped(result.id);
        else stored(result.anchor);
        dispatch({ type: 'undone', recreatedId: result.kind === 'recreated' ? result.anchor.id : undefined });
        void notify({ message: t('installation.anchors.undone'), intent: 'success' });
      },
      onError: failed,
    });
  };

  return {
    anchors,
    loading: list.isPending,
    selectedId,
    select: setSelectedId,
    tool,
    setTool,
    proposedName: () => nextPlanningName(anchors.map((anchor) => anchor.anchor_id)),
    add,
    move,
    rename,
    remove,
    undoable,
    undo,
    busy: addition.isPending || edit.isPending || deletion.isPending || undoing.isPending,
  };
}
