import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** The pencil at the end of a workforce list row. */
export function EditRowButton({ onClick }: { onClick(): void }) {
  const { t } = useTranslation();
  return (
    <Button
      small
      minimal
      icon="edit"
      aria-label={t('workforce.edit')}
      data-testid="workforce-edit"
      onClick={onClick}
    />
  );
}
