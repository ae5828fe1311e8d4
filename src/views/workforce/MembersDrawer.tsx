import { Button, Drawer, DrawerSize } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';

interface MembersDrawerProps {
  /** The crew's or shift's name; the drawer is open while there is one. */
  title: string | null;
  onClose(): void;
  testId: string;
  /** Opens "Assign workers"; absent when the user may not assign. */
  onAssign?: () => void;
  assignTestId: string;
  children: ReactNode;
}

/** A crew's or a work shift's members in a side drawer, with "Assign workers" on top. */
export function MembersDrawer({
  title,
  onClose,
  testId,
  onAssign,
  assignTestId,
  children,
}: MembersDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      isOpen={title !== null}
      onClose={onClose}
      title={title ?? undefined}
      size={DrawerSize.SMALL}
      position={currentLocale() === 'ar' ? 'left' : 'right'}
    >
      <div className="sw-workforce-drawer" data-testid={testId}>
        {onAssign && (
          <div className="sw-assign-actions">
            <Button
              intent="primary"
              icon="add"
              text={t('workforce.assign.workersButton')}
              onClick={onAssign}
              data-testid={assignTestId}
            />
          </div>
        )}
        {children}
      </div>
    </Drawer>
  );
}
