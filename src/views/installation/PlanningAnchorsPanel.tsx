import {
  Button,
  ButtonGroup,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
  NonIdealState,
  NumericInput,
} from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanningAnchor } from '../../api/installation';
import type { PlanningChange } from '../../domain/planningUndo';
import { ConfirmDeleteAlert } from '../maps/ConfirmDeleteAlert';
import type { PlanningAnchors } from './usePlanningAnchors';

function focusCanvas(): void {
  document.querySelector<HTMLCanvasElement>('[data-testid="installation-canvas"] canvas')?.focus();
}

/** The undo button's words: what it takes back. */
function useUndoLabel(): (change: PlanningChange | null, anchors: readonly PlanningAnchor[]) => string {
  const { t } = useTranslation();
  return (change, anchors) => {
    if (!change) return t('installation.anchors.undo');
    const nameOf = (id: number) => anchors.find((anchor) => anchor.id === id)?.anchor_id ?? '';
    const name =
      change.kind === 'add' || change.kind === 'delete'
        ? change.anchor.anchor_id
        : change.kind === 'rename'
          ? change.to
          : nameOf(change.id);
    return t(`installation.anchors.undoOf.${change.kind}`, { name });
  };
}

interface PlanningAnchorsPanelProps {
  planning: PlanningAnchors;
  canWrite: boolean;
  /** Asks for the anchor's deletion (the screen's Delete key asks through the same confirmation). */
  deleting: PlanningAnchor | null;
  onDeleting(anchor: PlanningAnchor | null): void;
}

/**
 * The floor's planning anchors: "Add anchor" (then a click on the floor, or Enter for the middle
 * of the view), the list (select, edit name and position, delete with a confirmation) and Undo of
 * the last change. The anchor's name is asked for when it is placed, "P-NN" proposed.
 */
export function PlanningAnchorsPanel({
  planning,
  canWrite,
  deleting,
  onDeleting,
}: PlanningAnchorsPanelProps) {
  const { t } = useTranslation();
  const undoLabel = useUndoLabel();
  const [editing, setEditing] = useState<{
    anchor: PlanningAnchor;
    name: string;
    lat: number;
    long: number;
  } | null>(null);
  const { anchors, tool, selectedId } = planning;
  const adding = tool.kind === 'adding';

  async function saveNew(event: FormEvent) {
    event.preventDefault();
    if (tool.kind !== 'naming' || tool.name.trim() === '') return;
    const saved = await planning.add(tool.name, tool.at);
    if (saved) planning.setTool({ kind: 'idle' });
  }

  async function saveEdit(event: FormEvent) {
    event.preventDefault();
    if (!editing || editing.name.trim() === '') return;
    const { anchor, name, lat, long } = editing;
    let ok = true;
    if (name.trim() !== anchor.anchor_id) ok = await planning.rename(anchor, name);
    if (ok && (lat !== anchor.metadata.lat || long !== anchor.metadata.long))
      planning.move(anchor, { lat, long });
    if (ok) setEditing(null);
  }

  return (
    <section
      className="sw-install-card"
      data-testid="planning-anchors"
      aria-labelledby="sw-install-anchors-title"
    >
      <div className="sw-install-card-head">
        <h2 id="sw-install-anchors-title">{t('installation.anchors.title')}</h2>
        <ButtonGroup>
          {canWrite && (
            <Button
              icon="add"
              active={adding}
              aria-pressed={adding}
              data-testid="planning-add"
              onClick={() => {
                planning.setTool(adding ? { kind: 'idle' } : { kind: 'adding' });
                // The floor takes the keys next: Enter places the anchor in the middle of the view.
                if (!adding) focusCanvas();
              }}
            >
              {t('installation.anchors.add')}
            </Button>
          )}
          {canWrite && (
            <Button
              icon="undo"
              data-testid="planning-undo"
              disabled={!planning.undoable || planning.busy}
              title={t('installation.anchors.undoHint')}
              onClick={planning.undo}
            >
              {undoLabel(planning.undoable, anchors)}
            </Button>
          )}
        </ButtonGroup>
      </div>
      {adding && (
        <p className="sw-install-hint" role="status" data-testid="planning-add-hint">
          {t('installation.anchors.addHint')}
        </p>
      )}
      {anchors.length === 0 ? (
        <NonIdealState icon="map-marker" description={t('installation.anchors.none')} />
      ) : (
        <ul className="sw-install-list" data-testid="planning-list">
          {anchors.map((anchor) => (
            <li
              key={anchor.id}
              data-testid="planning-item"
              data-anchor-id={anchor.anchor_id}
              data-selected={anchor.id === selectedId || undefined}
            >
              <Button
                minimal
                className="sw-install-list-name"
                active={anchor.id === selectedId}
                aria-pressed={anchor.id === selectedId}
                onClick={() => planning.select(anchor.id === selectedId ? null : anchor.id)}
              >
                <span dir="ltr">{anchor.anchor_id}</span>
              </Button>
              {canWrite && (
                <ButtonGroup minimal>
                  <Button
                    icon="edit"
                    aria-label={t('installation.anchors.editOf', { name: anchor.anchor_id })}
                    onClick={() =>
                      setEditing({
                        anchor,
                        name: anchor.anchor_id,
                        lat: anchor.metadata.lat,
                        long: anchor.metadata.long,
                      })
                    }
                  />
                  <Button
                    icon="trash"
                    intent="danger"
                    data-testid="planning-delete"
                    aria-label={t('installation.anchors.deleteOf', { name: anchor.anchor_id })}
                    onClick={() => onDeleting(anchor)}
                  />
                </ButtonGroup>
              )}
            </li>
          ))}
        </ul>
      )}

      <Dialog
        isOpen={tool.kind === 'naming'}
        title={t('installation.anchors.newTitle')}
        onClose={() => planning.setTool({ kind: 'idle' })}
      >
        <form onSubmit={saveNew} data-testid="planning-new">
          <DialogBody>
            <FormGroup label={t('installation.anchors.name')} labelFor="sw-install-new-name">
              <InputGroup
                id="sw-install-new-name"
                autoFocus
                dir="ltr"
                data-testid="planning-new-name"
                value={tool.kind === 'naming' ? tool.name : ''}
                onChange={(e) =>
                  tool.kind === 'naming' && planning.setTool({ ...tool, name: e.currentTarget.value })
                }
              />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button onClick={() => planning.setTool({ kind: 'idle' })}>{t('common.cancel')}</Button>
                <Button
                  type="submit"
                  intent="primary"
                  loading={planning.busy}
                  disabled={tool.kind !== 'naming' || tool.name.trim() === ''}
                  data-testid="planning-new-save"
                >
                  {t('installation.anchors.save')}
                </Button>
              </>
            }
          />
        </form>
      </Dialog>

      <Dialog
        isOpen={editing !== null}
        title={t('installation.anchors.editTitle')}
        onClose={() => setEditing(null)}
      >
        <form onSubmit={saveEdit} data-testid="planning-edit">
          <DialogBody>
            <FormGroup label={t('installation.anchors.name')} labelFor="sw-install-edit-name">
              <InputGroup
                id="sw-install-edit-name"
                dir="ltr"
                value={editing?.name ?? ''}
                onChange={(e) => editing && setEditing({ ...editing, name: e.currentTarget.value })}
              />
            </FormGroup>
            <FormGroup label={t('installation.anchors.lat')} labelFor="sw-install-edit-lat">
              <NumericInput
                id="sw-install-edit-lat"
                dir="ltr"
                fill
                minorStepSize={0.000001}
                stepSize={0.00001}
                majorStepSize={0.0001}
                value={editing?.lat ?? 0}
                onValueChange={(value) =>
                  editing && Number.isFinite(value) && setEditing({ ...editing, lat: value })
                }
              />
            </FormGroup>
            <FormGroup label={t('installation.anchors.long')} labelFor="sw-install-edit-long">
              <NumericInput
                id="sw-install-edit-long"
                dir="ltr"
                fill
                minorStepSize={0.000001}
                stepSize={0.00001}
                majorStepSize={0.0001}
                value={editing?.long ?? 0}
                onValueChange={(value) =>
                  editing && Number.isFinite(value) && setEditing({ ...editing, long: value })
                }
              />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
                <Button
                  type="submit"
                  intent="primary"
                  loading={planning.busy}
                  disabled={!editing?.name.trim()}
                >
                  {t('installation.anchors.save')}
                </Button>
              </>
            }
          />
        </form>
      </Dialog>

      <ConfirmDeleteAlert
        label={deleting?.anchor_id ?? null}
        busy={planning.busy}
        onCancel={() => onDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await planning.remove(deleting);
          onDeleting(null);
        }}
      />
    </section>
  );
}
