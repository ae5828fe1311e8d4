import { Button, Callout, FormGroup, HTMLSelect, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchWalls } from '../../../api/installationWalls';
import { WALL_MATERIALS, type WallMaterial } from '../../../domain/wallGeometry';
import { DEFAULT_WALL_MATERIAL } from '../../../machines/wallDrawing.machine';
import { cssColour, WALL_STYLES } from '../../canvas/layers/wallStyle';
import { ConfirmAlert } from '../../shared/ConfirmAlert';
import type { WallDrawing } from './useWallDrawing';
import './walls.css';

export interface WallsPanelProps {
  /** What useWallDrawing returned for the floor on the canvas. */
  walls: WallDrawing;
}

/**
 * The floor's walls beside the installation canvas: search by name (case-insensitive), pick one
 * (it is selected on the canvas too, to drag or reshape), rename it or change its material,
 * delete it after a confirmation, and draw a new one in a chosen material.
 */
export function WallsPanel({ walls }: WallsPanelProps) {
  const { t } = useTranslation();
  const searchId = useId();
  const materialId = useId();
  const [query, setQuery] = useState('');
  const [newMaterial, setNewMaterial] = useState<WallMaterial>(DEFAULT_WALL_MATERIAL);
  const { phase, canWrite } = walls;
  const drafting = phase === 'drawing' || phase === 'naming' || phase === 'saving';
  const shown = searchWalls(walls.walls, query);
  const materialOptions = WALL_MATERIALS.map((material) => ({
    value: material,
    label: t(`installation.walls.materials.${material}`),
  }));

  return (
    <section className="sw-walls" data-testid="walls-panel" aria-label={t('installation.walls.title')}>
      <div className="sw-walls-head">
        <h3 className="sw-walls-heading">{t('installation.walls.title')}</h3>
      </div>

      {canWrite && !drafting && (
        <div className="sw-walls-new">
          <FormGroup
            label={t('installation.walls.newMaterial')}
            labelFor={materialId}
            className="sw-walls-field"
          >
            <HTMLSelect
              id={materialId}
              value={newMaterial}
              data-testid="wall-new-material"
              onChange={(event) => setNewMaterial(event.currentTarget.value as WallMaterial)}
              options={materialOptions}
            />
          </FormGroup>
          <Button
            icon="draw"
            intent="primary"
            size="small"
            text={t('installation.walls.draw')}
            disabled={!walls.canStart && phase !== 'selected'}
            data-testid="wall-draw"
            onClick={() => {
              if (phase === 'selected') walls.send({ type: 'wall.deselect' });
              walls.startDrawing(newMaterial);
            }}
          />
        </div>
      )}

      {canWrite && drafting && <DrawingControls walls={walls} />}
      {walls.selected && !drafting && <SelectedWall walls={walls} />}

      <FormGroup label={t('installation.walls.search')} labelFor={searchId} className="sw-walls-search">
        <InputGroup
          id={searchId}
          type="search"
          leftIcon="search"
          value={query}
          onValueChange={setQuery}
          data-testid="wall-search"
        />
      </FormGroup>

      {walls.loadError && (
        <Callout intent="danger" compact data-testid="walls-load-error">
          {t('installation.walls.loadError')}
        </Callout>
      )}
      {shown.length === 0 && !walls.loading ? (
        <NonIdealState
          icon="minus"
          description={
            walls.walls.length === 0 ? t('installation.walls.none') : t('installation.walls.noMatch')
          }
        />
      ) : (
        <ul className="sw-walls-list" data-testid="wall-list">
          {shown.map((wall) => {
            const selected = wall.id === walls.selectedId;
            return (
              <li
                key={wall.id}
                data-testid="wall-item"
                data-wall-id={wall.id}
                data-selected={selected || undefined}
              >
                <button
                  type="button"
                  className="sw-walls-item"
                  aria-pressed={selected}
                  disabled={drafting || walls.busy}
                  onClick={() => walls.selectWall(selected ? null : wall)}
                >
                  <span
                    className="sw-walls-swatch"
                    style={{ background: cssColour(WALL_STYLES[wall.material].colour) }}
                    aria-hidden
                  />
                  <span className="sw-walls-name" data-testid="wall-name">
                    {wall.name}
                  </span>
                  <Tag minimal round>
                    {t(`installation.walls.materials.${wall.material}`)} ·{' '}
                    {t('installation.walls.attenuation', { value: wall.attenuation_db })}
                  </Tag>
                </button>
              </li>
            );
          })}
        </ul>
      )}

      <ConfirmAlert
        isOpen={phase === 'confirming' || phase === 'deleting'}
        intent="danger"
        icon="trash"
        busy={phase === 'deleting'}
        escapeCancels
        confirmText={t('installation.walls.delete')}
        onConfirm={() => walls.send({ type: 'delete.confirm' })}
        onCancel={() => walls.send({ type: 'delete.dismiss' })}
      >
        <p data-testid="wall-confirm-delete">{t('installation.walls.confirmDelete')}</p>
      </ConfirmAlert>
    </section>
  );
}

/** While drawing: points, undo, finish and cancel; while naming: the name and material, then save. */
function DrawingControls({ walls }: WallsPanelProps) {
  const { t } = useTranslation();
  const nameId = useId();
  const materialId = useId();
  const { phase, send } = walls;

  if (phase === 'drawing') {
    return (
      <Callout intent="primary" compact className="sw-walls-drawing" data-testid="wall-drawing">
        <p>{t('installation.walls.drawingHint')}</p>
        <p data-testid="wall-draw-points">
          {t('installation.walls.points', { count: walls.vertices.length })}
        </p>
        <div className="sw-walls-buttons">
          <Button
            size="small"
            icon="undo"
            text={t('installation.walls.undo')}
            disabled={!walls.canUndo}
            data-testid="wall-draw-undo"
            onClick={() => send({ type: 'draw.undo' })}
          />
          <Button
            size="small"
            intent="primary"
            icon="tick"
            text={t('installation.walls.finish')}
            disabled={!walls.canFinish}
            data-testid="wall-draw-finish"
            onClick={() => send({ type: 'draw.finish' })}
          />
          <Button
            size="small"
            text={t('common.cancel')}
            data-testid="wall-draw-cancel"
            onClick={() => send({ type: 'draw.cancel' })}
          />
        </div>
      </Callout>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'name.submit' });
  };
  return (
    <form className="sw-walls-drawing" onSubmit={submit} data-testid="wall-naming">
      {walls.error && (
        <Callout intent="danger" compact data-testid="wall-error">
          {walls.error}
        </Callout>
      )}
      <FormGroup label={t('installation.walls.name')} labelFor={nameId}>
        <InputGroup
          id={nameId}
          autoFocus
          value={walls.name}
          disabled={walls.busy}
          data-testid="wall-name-input"
          onValueChange={(name) => send({ type: 'name.change', name })}
        />
      </FormGroup>
      <FormGroup label={t('installation.walls.material')} labelFor={materialId}>
        <HTMLSelect
          id={materialId}
          fill
          value={walls.material}
          disabled={walls.busy}
          data-testid="wall-material-select"
          onChange={(event) =>
            send({ type: 'material.change', material: event.currentTarget.value as WallMaterial })
          }
          options={WALL_MATERIALS.map((material) => ({
            value: material,
            label: t(`installation.walls.materials.${material}`),
          }))}
        />
      </FormGroup>
      <div className="sw-walls-buttons">
        <Button
          type="submit"
          intent="primary"
          size="small"
          text={t('installation.walls.save')}
          loading={walls.busy}
          disabled={!walls.canSubmit && !walls.busy}
          data-testid="wall-save"
        />
        <Button
          size="small"
          text={t('installation.walls.backToDrawing')}
          disabled={walls.busy}
          data-testid="wall-draw-back"
          onClick={() => send({ type: 'draw.resume' })}
        />
        <Button
          size="small"
          text={t('common.cancel')}
          data-testid="wall-draw-cancel"
          onClick={() => send({ type: 'draw.cancel' })}
        />
      </div>
    </form>
  );
}

/** The selected wall: rename, change its material, delete; dragging it happens on the canvas. */
function SelectedWall({ walls }: WallsPanelProps) {
  const { t } = useTranslation();
  const nameId = useId();
  const materialId = useId();
  const { phase, send, canWrite } = walls;
  const locked = walls.busy || phase === 'moving' || !canWrite;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'edit.submit' });
  };
  return (
    <form className="sw-walls-selected" onSubmit={submit} data-testid="wall-selected">
      {canWrite && (
        <p className="sw-walls-hint">
          {phase === 'moving' ? t('installation.walls.moving') : t('installation.walls.selectedHint')}
        </p>
      )}
      {walls.error && (
        <Callout intent="danger" compact data-testid="wall-error">
          {walls.error}
        </Callout>
      )}
      <FormGroup label={t('installation.walls.name')} labelFor={nameId}>
        <InputGroup
          id={nameId}
          value={walls.name}
          disabled={locked}
          data-testid="wall-edit-name"
          onValueChange={(name) => send({ type: 'name.change', name })}
        />
      </FormGroup>
      <FormGroup label={t('installation.walls.material')} labelFor={materialId}>
        <HTMLSelect
          id={materialId}
          fill
          value={walls.material}
          disabled={locked}
          data-testid="wall-edit-material"
          onChange={(event) =>
            send({ type: 'material.change', material: event.currentTarget.value as WallMaterial })
          }
          options={WALL_MATERIALS.map((material) => ({
            value: material,
            label: t(`installation.walls.materials.${material}`),
          }))}
        />
      </FormGroup>
      <div className="sw-walls-buttons">
        {canWrite && (
          <Button
            type="submit"
            intent="primary"
            size="small"
            text={t('installation.walls.saveChanges')}
            loading={phase === 'updating'}
            disabled={!walls.canSubmitEdit}
            data-testid="wall-edit-save"
          />
        )}
        {canWrite && (
          <Button
            size="small"
            intent="danger"
            icon="trash"
            text={t('installation.walls.delete')}
            disabled={phase !== 'selected'}
            data-testid="wall-delete"
            onClick={() => send({ type: 'delete.request' })}
          />
        )}
        <Button
          size="small"
          text={t('installation.walls.close')}
          disabled={walls.busy}
          data-testid="wall-deselect"
          onClick={() => send({ type: 'wall.deselect' })}
        />
      </div>
    </form>
  );
}
