import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MARK_REASONS } from '../../../../domain/evacuation';
import { rollPersonProblems } from '../../../../domain/rollCall';

interface AddPersonDialogProps {
  isOpen: boolean;
  busy: boolean;
  portalContainer?: HTMLElement;
  onAdd(person: { name: string; company: string; reason: string | null }): void;
  onClose(): void;
}

/** A person without a helmet (a visitor, a driver) goes on the roll, accounted for at once or not. */
export function AddPersonDialog({ isOpen, busy, portalContainer, onAdd, onClose }: AddPersonDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const [accounted, setAccounted] = useState(true);
  const [touched, setTouched] = useState(false);
  const problems = rollPersonProblems({ name, company });
  const close = () => {
    setName('');
    setCompany('');
    setTouched(false);
    onClose();
  };
  return (
    <Dialog
      isOpen={isOpen}
      title={t('evacuation.marshal.personTitle')}
      onClose={close}
      portalContainer={portalContainer}
      className="sw-evac-dialog"
    >
      <form
        data-testid="add-person-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (Object.keys(problems).length > 0) return;
          onAdd({
            name: name.trim(),
            company: company.trim(),
            reason: accounted ? t(`evacuation.marshal.reasons.${MARK_REASONS[0]}`) : null,
          });
          close();
        }}
      >
        <DialogBody>
          <FormGroup
            label={t('evacuation.marshal.name')}
            labelFor="sw-roll-name"
            intent={touched && problems.name ? 'danger' : 'none'}
            helperText={touched ? problems.name : undefined}
          >
            <InputGroup
              id="sw-roll-name"
              large
              autoFocus
              value={name}
              onValueChange={setName}
              data-testid="roll-name"
            />
          </FormGroup>
          <FormGroup
            label={t('evacuation.marshal.company')}
            labelFor="sw-roll-company"
            intent={touched && problems.company ? 'danger' : 'none'}
            helperText={touched ? problems.company : undefined}
          >
            <InputGroup
              id="sw-roll-company"
              large
              value={company}
              onValueChange={setCompany}
              data-testid="roll-company"
            />
          </FormGroup>
          <Checkbox
            large
            checked={accounted}
            onChange={(event) => setAccounted(event.currentTarget.checked)}
            label={`${t('evacuation.marshal.accountedNow')}: ${t(`evacuation.marshal.reasons.${MARK_REASONS[0]}`)}`}
          />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('evacuation.marshal.cancel')} onClick={close} large />
              <Button
                type="submit"
                intent="primary"
                large
                icon="new-person"
                text={t('evacuation.marshal.addSubmit')}
                loading={busy}
                data-testid="add-person-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
