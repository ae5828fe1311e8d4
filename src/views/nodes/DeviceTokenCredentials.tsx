import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { topicRootQuery } from '../../api/deviceTokens';
import { type TopicKind, topicFor } from '../../domain/live';
import type { CreatedDeviceToken } from '../../domain/schemas/ingest';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';

/** What a gateway publishes on (spec: positions, node diagnostics, helmet events). */
const PUBLISHED_KINDS: readonly TopicKind[] = ['positions', 'nodes', 'events'];

/** A read-only value with a button that copies it. */
function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      void notify({ message: t('deviceTokens.once.copyFailed'), intent: 'warning' });
    }
  };
  return (
    <FormGroup label={label} labelFor={id} className="sw-device-token-secret">
      <InputGroup
        id={id}
        readOnly
        value={value}
        data-testid={testId}
        onFocus={(event) => event.currentTarget.select()}
        rightElement={
          <Button
            minimal
            icon={copied ? 'tick' : 'duplicate'}
            text={copied ? t('deviceTokens.once.copied') : t('deviceTokens.once.copy')}
            data-testid={`${testId}-copy`}
            onClick={() => void copy()}
          />
        }
      />
    </FormGroup>
  );
}

/** What a gateway needs, shown once: MQTT username (the token's id), password (the token), topics. */
export function DeviceTokenCredentials({ token }: { token: CreatedDeviceToken }) {
  const { t } = useTranslation();
  const api = useApi();
  const root = useQuery(topicRootQuery(api)).data;
  return (
    <div className="sw-device-token-created" data-testid="device-token-created">
      <Callout intent="warning" icon="eye-off" compact>
        {t('deviceTokens.once.warning')}
      </Callout>
      <CopyField
        label={t('deviceTokens.once.username')}
        value={String(token.id)}
        testId="device-token-username"
      />
      <CopyField label={t('deviceTokens.once.password')} value={token.token} testId="device-token-secret" />
      <FormGroup label={t('deviceTokens.once.topics')}>
        <ul className="sw-device-token-topics" data-testid="device-token-topics" dir="ltr">
          {root && PUBLISHED_KINDS.map((kind) => <li key={kind}>{topicFor(token.site_id, kind, root)}</li>)}
        </ul>
      </FormGroup>
      <p className="bp6-text-muted">{t('deviceTokens.once.http')}</p>
    </div>
  );
}
