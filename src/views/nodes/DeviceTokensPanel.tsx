import { Button, H4, HTMLTable, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceTokensQuery, revokeDeviceToken } from '../../api/deviceTokens';
import { queryKeys } from '../../api/queryKeys';
import { canManageDeviceTokens } from '../../domain/deviceTokenAccess';
import type { DeviceToken } from '../../domain/schemas/ingest';
import { serverProblem } from '../forms/serverProblem';
import { SiteListBody } from '../lists/SiteListBody';
import { notify } from '../notify';
import { useApi, useSession } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { useSelection } from '../shell/selection';
import { NewDeviceTokenDialog } from './NewDeviceTokenDialog';

function formatWhen(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/**
 * The selected site's device tokens: the list (active and revoked), a new token with a label
 * (its secret shown once), and revoking one after a confirmation.
 */
export function DeviceTokensPanel() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const canManage = user ? canManageDeviceTokens(user.user_role) : false;
  const list = useQuery({ ...deviceTokensQuery(api, siteId), enabled: siteId > 0 && canManage });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<DeviceToken | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.deviceTokens.bySite(siteId) });

  const revoke = useMutation({
    mutationFn: (token: DeviceToken) => revokeDeviceToken(api, siteId, token.id),
    onSuccess: (token) => {
      setRevoking(null);
      void notify({ message: t('deviceTokens.revoked', { label: token.label }), intent: 'success' });
      void refresh();
    },
    onError: (error) => {
      setRevoking(null);
      void notify({
        message:
          serverProblem(error, t('common.somethingWentWrong')).general ?? t('common.somethingWentWrong'),
        intent: 'danger',
      });
    },
  });

  if (!canManage) return null;
  const tokens = list.data ?? [];
  return (
    <section className="sw-device-tokens" data-testid="device-tokens">
      <div className="sw-device-tokens-header">
        <H4>{t('deviceTokens.title')}</H4>
        {site && (
          <Button
            intent="primary"
            icon="add"
            text={t('deviceTokens.new')}
            data-testid="device-token-new"
            onClick={() => setCreating(true)}
          />
        )}
      </div>
      <p className="bp6-text-muted">{t('deviceTokens.description')}</p>
      <SiteListBody
        noSite={t('deviceTokens.noSite')}
        list={list}
        isEmpty={tokens.length === 0}
        empty={{
          testId: 'device-tokens-empty',
          icon: 'key',
          title: t('deviceTokens.empty'),
          description: t('deviceTokens.emptyHint'),
        }}
      >
        {() => (
          <HTMLTable striped className="sw-device-tokens-table" data-testid="device-tokens-list">
            <thead>
              <tr>
                <th>{t('deviceTokens.label')}</th>
                <th>{t('deviceTokens.tokenId')}</th>
                <th>{t('deviceTokens.created')}</th>
                <th>{t('deviceTokens.status')}</th>
                <th>{t('deviceTokens.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr
                  key={token.id}
                  data-testid="device-token-row"
                  data-token-id={token.id}
                  data-state={token.revoked_at ? 'revoked' : 'active'}
                >
                  <td data-testid="device-token-label">{token.label}</td>
                  <td>{token.id}</td>
                  <td>{formatWhen(token.created_at, i18n.language)}</td>
                  <td data-testid="device-token-status">
                    {token.revoked_at ? (
                      <Tag intent="danger" minimal>
                        {t('deviceTokens.revokedAt', { when: formatWhen(token.revoked_at, i18n.language) })}
                      </Tag>
                    ) : (
                      <Tag intent="success" minimal>
                        {t('deviceTokens.active')}
                      </Tag>
                    )}
                  </td>
                  <td>
                    {!token.revoked_at && (
                      <Button
                        small
                        intent="danger"
                        icon="disable"
                        text={t('deviceTokens.revoke')}
                        data-testid="device-token-revoke"
                        onClick={() => setRevoking(token)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </SiteListBody>
      <ConfirmAlert
        isOpen={revoking !== null}
        intent="danger"
        icon="disable"
        busy={revoke.isPending}
        escapeCancels
        confirmText={t('deviceTokens.revoke')}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p data-testid="device-token-revoke-confirm">
          {t('deviceTokens.confirmRevoke', { label: revoking?.label ?? '' })}
        </p>
      </ConfirmAlert>
      {creating && site && (
        <NewDeviceTokenDialog
          siteId={site.id}
          onCreated={() => void refresh()}
          onClose={() => setCreating(false)}
        />
      )}
    </section>
  );
}
