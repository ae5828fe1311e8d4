import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MARK_REASONS } from '../../../../domain/evacuation';
import { markReasonProblem } from '../../../../domain/rollCall';

const OTHER = 'other';

interface MarkDialogProps {
  /** Who is being marked; null closes the dialog. */
  name: string | null;
  busy: boolean;
  portalContainer?: HTMLElement;
  onMark(reason: string): void;
  onClose(): void;
}

/** A marshal marks someone accounted for: one of the usual reasons, or their own words. */
export function MarkDialog({ name, busy, portalContainer, onMark, onClose }: MarkDialogProps) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<string>(MARK_REASONS[0]);
  const [other, setOther] = useState('');
  const reason = choice === OTHER ? other : t(`evacuation.marshal.reasons.${choice}`);
  const problem = markReasonProblem(reason);
  return (
    <Dialog
      isOpen={name !== null}
      title={t('evacuation.marshal.markTitle', { name: name ?? '' })}
      onClose={onClose}
      portalContainer={portalContainer}
      className="sw-evac-dialog"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (problem === null) onMark(reason.trim());
        }}
        data-testid="mark-dialog"
      >
        <DialogBody>
          <RadioGroup
            label={t('evacuation.marshal.reason')}
            selectedValue={choice}
            onChange={(event) => setChoice(event.currentTarget.value)}
          >
            {MARK_REASONS.map((key) => (
              <Radio key={key} value={key} label={t(`evacuation.marshal.reasons.${key}`)} large />
            ))}
            <Radio value={OTHER} label={t('evacuation.marshal.otherReason')} large />
          </RadioGroup>
          {choice === OTHER && (
            <FormGroup
              label={t('evacuation.marshal.otherReason')}
              labelFor="sw-mark-other"
              intent={problem ? 'danger' : 'none'}
            >
              <InputGroup
                id="sw-mark-other"
                large
                autoFocus
                value={other}
                onValueChange={setOther}
                maxLength={200}
                data-testid="mark-other-reason"
              />
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('evacuation.marshal.cancel')} onClick={onClose} large />
              <Button
                type="submit"
                intent="success"
                large
                icon="endorsed"
                text={t('evacuation.marshal.markSubmit')}
                disabled={problem !== null}
                loading={busy}
                data-testid="mark-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
