import { Button, type IconName, type Intent } from '@blueprintjs/core';

export interface ItemAction {
  icon: IconName;
  /** The accessible name: the action and the item's name ("Delete Level 2"). */
  label: string;
  testId: string;
  intent?: Intent;
  loading?: boolean;
  onClick(): void;
}

/** The small icon buttons at the end of a floor's or a zone's row in the maps lists. */
export function ItemActions({ actions }: { actions: readonly ItemAction[] }) {
  return (
    <span className="sw-maps-item-actions">
      {actions.map((action) => (
        <Button
          key={action.testId}
          variant="minimal"
          size="small"
          icon={action.icon}
          intent={action.intent}
          aria-label={action.label}
          loading={action.loading}
          data-testid={action.testId}
          onClick={action.onClick}
        />
      ))}
    </span>
  );
}
