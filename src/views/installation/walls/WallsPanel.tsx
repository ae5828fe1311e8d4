import { Button, Callout, FormGroup, HTMLSelect, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchWalls } from '../../../api/installationWalls';
import { WALL_MATERIALS, type WallMaterial } from '../../../domain/wallGeometry';
import { DEFAULT_WALL_MATERIAL } from '../../../machines/wallDrawing.machine';
import { cssColour, WALL_STYLES } from '../../canvas/layers/wallStyle';
import { ConfirmAlert } from '../../shared/ConfirmAlert';
import { DrawingCallout, NamingButtons, type ShapeDrawingTexts } from '../../shared/ShapeDrawingControls';
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
  const materialOptions = useWallMaterialOptions();

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

const WALL_DRAWING_TEXTS: ShapeDrawingTexts = {
  keyPrefix: 'installation.walls',
  saveKey: 'installation.walls.save',
  testId: 'wall',
  className: 'sw-walls-drawing',
  buttonsClassName: 'sw-walls-buttons',
};

interface WallFieldsProps extends WallsPanelProps {
  disabled: boolean;
  autoFocus?: boolean;
  nameTestId: string;
  materialTestId: string;
}

function useWallMaterialOptions() {
  const { t } = useTranslation();
  return WALL_MATERIALS.map((material) => ({
    value: material,
    label: t(`installation.walls.materials.${material}`),
  }));
}

/** The last refused request's message, and a wall's name and material, as a new wall is named and a selected one edited. */
function WallFields({ walls, disabled, autoFocus, nameTestId, materialTestId }: WallFieldsProps) {
  const { t } = useTranslation();
  const nameId = useId();
  const materialId = useId();
  const { send } = walls;
  const materialOptions = useWallMaterialOptions();
  return (
    <>
      {walls.error && (
        <Callout intent="danger" compact data-testid="wall-error">
          {walls.error}
        </Callout>
      )}
      <FormGroup label={t('installation.walls.name')} labelFor={nameId}>
        <InputGroup
          id={nameId}
          autoFocus={autoFocus}
          value={walls.name}
          disabled={disabled}
          data-testid={nameTestId}
          onValueChange={(name) => send({ type: 'name.change', name })}
        />
      </FormGroup>
      <FormGroup label={t('installation.walls.material')} labelFor={materialId}>
        <HTMLSelect
          id={materialId}
          fill
          value={walls.material}
          disabled={disabled}
          data-testid={materialTestId}
          onChange={(event) =>
            send({ type: 'material.change', material: event.currentTarget.value as WallMaterial })
          }
          options={materialOptions}
        />
      </FormGroup>
    </>
  );
}

/** While drawing: points, undo, finish and cancel; while naming: the name and material, then save. */
function DrawingControls({ walls }: WallsPanelProps) {
  const { phase, send } = walls;

  if (phase === 'drawing') {
    return (
      <DrawingCallout
        texts={WALL_DRAWING_TEXTS}
        points={walls.vertices.length}
        canUndo={walls.canUndo}
        canFinish={walls.canFinish}
        onUndo={() => send({ type: 'draw.undo' })}
        onFinish={() => send({ type: 'draw.finish' })}
        onCancel={() => send({ type: 'draw.cancel' })}
      />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'name.submit' });
  };
  return (
    <form className="sw-walls-drawing" onSubmit={submit} data-testid="wall-naming">
      <WallFields
        walls={walls}
        disabled={walls.busy}
        autoFocus
        nameTestId="wall-name-input"
        materialTestId="wall-material-select"
      />
      <NamingButtons
        texts={WALL_DRAWING_TEXTS}
        busy={walls.busy}
        canSubmit={walls.canSubmit}
        onBack={() => send({ type: 'draw.resume' })}
        onCancel={() => send({ type: 'draw.cancel' })}
      />
    </form>
  );
}

/** The selected wall: rename, change its material, delete; dragging it happens on the canvas. */
function SelectedWall({ walls }: WallsPanelProps) {
  const { t } = useTranslation();
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
      <WallFields
        walls={walls}
        disabled={locked}
        nameTestId="wall-edit-name"
        materialTestId="wall-edit-material"
      />
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
