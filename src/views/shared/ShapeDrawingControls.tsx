import { Button, Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** The translation keys and test ids of one kind of drawn shape (a zone, a wall). */
export interface ShapeDrawingTexts {
  /** Holds drawingHint, points, undo, finish and backToDrawing. */
  keyPrefix: 'maps.zone' | 'installation.walls';
  saveKey: 'maps.zone.saveZone' | 'installation.walls.save';
  /** `${testId}-drawing`, `${testId}-draw-undo`, `${testId}-save`, … */
  testId: string;
  className: string;
  buttonsClassName: string;
}

/** Cancel (as Escape): the drawing is discarded. */
function CancelDrawingButton({ testId, onCancel }: { testId: string; onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <Button size="small" text={t('common.cancel')} data-testid={`${testId}-draw-cancel`} onClick={onCancel} />
  );
}

interface DrawingCalloutProps {
  texts: ShapeDrawingTexts;
  points: number;
  canUndo: boolean;
  canFinish: boolean;
  onUndo(): void;
  onFinish(): void;
  onCancel(): void;
}

/** While a shape is drawn on the canvas: the hint, how many points, and undo, finish and cancel. */
export function DrawingCallout({
  texts,
  points,
  canUndo,
  canFinish,
  onUndo,
  onFinish,
  onCancel,
}: DrawingCalloutProps) {
  const { t } = useTranslation();
  const { keyPrefix, testId } = texts;
  return (
    <Callout intent="primary" compact className={texts.className} data-testid={`${testId}-drawing`}>
      <p>{t(`${keyPrefix}.drawingHint`)}</p>
      <p data-testid={`${testId}-draw-points`}>{t(`${keyPrefix}.points`, { count: points })}</p>
      <div className={texts.buttonsClassName}>
        <Button
          size="small"
          icon="undo"
          text={t(`${keyPrefix}.undo`)}
          disabled={!canUndo}
          data-testid={`${testId}-draw-undo`}
          onClick={onUndo}
        />
        <Button
          size="small"
          intent="primary"
          icon="tick"
          text={t(`${keyPrefix}.finish`)}
          disabled={!canFinish}
          data-testid={`${testId}-draw-finish`}
          onClick={onFinish}
        />
        <CancelDrawingButton testId={testId} onCancel={onCancel} />
      </div>
    </Callout>
  );
}

interface NamingButtonsProps {
  texts: ShapeDrawingTexts;
  busy: boolean;
  canSubmit: boolean;
  onBack(): void;
  onCancel(): void;
}

/** Under the naming form of a drawn shape: save (the form's submit), back to drawing, cancel. */
export function NamingButtons({ texts, busy, canSubmit, onBack, onCancel }: NamingButtonsProps) {
  const { t } = useTranslation();
  const { testId } = texts;
  return (
    <div className={texts.buttonsClassName}>
      <Button
        type="submit"
        intent="primary"
        size="small"
        text={t(texts.saveKey)}
        loading={busy}
        disabled={!canSubmit && !busy}
        data-testid={`${testId}-save`}
      />
      <Button
        size="small"
        text={t(`${texts.keyPrefix}.backToDrawing`)}
        disabled={busy}
        data-testid={`${testId}-draw-back`}
        onClick={onBack}
      />
      <CancelDrawingButton testId={testId} onCancel={onCancel} />
    </div>
  );
}
