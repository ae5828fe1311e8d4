import { Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { LiveConnection } from '../canvas/useLiveWorkers';

const INTENT = { connecting: 'none', live: 'success', reconnecting: 'warning', offline: 'danger' } as const;
const ICON = { connecting: 'refresh', live: 'feed', reconnecting: 'refresh', offline: 'offline' } as const;

/** Whether the dashboard's numbers and markers are live, in words (not colour alone). */
export function LiveIndicator({ connection }: { connection: LiveConnection }) {
  const { t } = useTranslation();
  const text = t(`screen.dashboard.live.${connection.state}`);
  return (
    <Tag
      minimal
      round
      intent={INTENT[connection.state]}
      icon={ICON[connection.state]}
      data-testid="live-indicator"
      data-state={connection.state}
      title={connection.reason}
      aria-label={t('screen.dashboard.live.label', { state: text })}
      role="status"
    >
      {text}
    </Tag>
  );
}
