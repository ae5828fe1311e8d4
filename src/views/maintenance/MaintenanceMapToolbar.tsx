import { Button, ButtonGroup } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import type { MaintenanceMapEvent, PressedModes } from '../../machines/maintenanceMap.machine';

/** The four modes' buttons: their event, icon, label key and keyboard shortcut (KeyboardEvent.code). */
export const MODE_BUTTONS: readonly {
  readonly mode: keyof PressedModes;
  readonly event: MaintenanceMapEvent['type'];
  readonly icon: IconName;
  readonly code: string;
  readonly key: string;
}[] = [
  { mode: 'fullscreen', event: 'mode.fullscreen', icon: 'fullscreen', code: 'KeyF', key: 'F' },
  { mode: 'presentation', event: 'mode.presentation', icon: 'presentation', code: 'KeyP', key: 'P' },
  { mode: 'graph', event: 'mode.graph', icon: 'graph', code: 'KeyG', key: 'G' },
  { mode: 'playback', event: 'mode.playback', icon: 'history', code: 'KeyR', key: 'R' },
];

interface ToolbarProps {
  pressed: PressedModes;
  canReset: boolean;
  onMode(event: MaintenanceMapEvent['type']): void;
}

/**
 * The map's modes as toggle buttons (aria-pressed, so a screen reader and the test read them
 * the same way), with the reset beside them. Each button names its shortcut; the shortcuts work
 * anywhere on the screen but in a text field.
 */
export function MaintenanceMapToolbar({ pressed, canReset, onMode }: ToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="sw-mmap-toolbar" role="toolbar" aria-label={t('maintenance.map.modes')}>
      <ButtonGroup>
        {MODE_BUTTONS.map(({ mode, event, icon, key }) => {
          const label = t(`maintenance.map.${mode}`);
          return (
            <Button
              key={mode}
              icon={icon}
              text={<span className="sw-mmap-toolbar-label">{label}</span>}
              active={pressed[mode]}
              intent={pressed[mode] ? 'primary' : 'none'}
              aria-pressed={pressed[mode]}
              aria-keyshortcuts={key}
              title={t('maintenance.map.shortcut', { label, key })}
              onClick={() => onMode(event)}
              data-testid={`mmap-mode-${mode}`}
            />
          );
        })}
      </ButtonGroup>
      <Button
        icon="reset"
        text={<span className="sw-mmap-toolbar-label">{t('maintenance.map.reset')}</span>}
        disabled={!canReset}
        title={t('maintenance.map.resetHint')}
        aria-keyshortcuts="Escape"
        onClick={() => onMode('mode.reset')}
        data-testid="mmap-mode-reset"
      />
    </div>
  );
}
