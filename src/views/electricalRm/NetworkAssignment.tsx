import { Button, Callout, Card, FormGroup, H4, HTMLSelect, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useElectricalRoomWrites, useUnassignedNetworks } from '../../api/electricalRooms';
import type { SiteElectricalRooms } from '../../domain/schemas/electricalRooms';
import type { Site } from '../../domain/user';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { failureText } from '../shared/serverMessage';
import { siteNetworks } from './electricalRmFormat';

interface NetworkAssignmentProps {
  site: Site;
  data: SiteElectricalRooms;
  /** Whether the user may assign networks (the `networks` area); others see the list only. */
  canAssign: boolean;
}

/** The site's networks, and the networks on no site yet, which a site admin assigns here. */
export function NetworkAssignment({ site, data, canAssign }: NetworkAssignmentProps) {
  const { t } = useTranslation();
  const api = useApi();
  const unassigned = useUnassignedNetworks(api, canAssign);
  const { assignNetwork } = useElectricalRoomWrites(api, site.id);
  const [picked, setPicked] = useState('');
  const [confirming, setConfirming] = useState(false);
  const networks = siteNetworks(data);
  const choices = unassigned.data ?? [];
  const pickedNetwork = choices.find((network) => String(network.id) === picked) ?? null;

  const assign = () => {
    if (!pickedNetwork) return;
    assignNetwork.mutate(pickedNetwork.id, {
      onSuccess: () => {
        void notify({
          message: t('electricalRm.networks.assigned', { network: pickedNetwork.name, site: site.name }),
          intent: 'success',
        });
        setPicked('');
        setConfirming(false);
      },
      onError: (error) => {
        void notify({ message: failureText(error, t('common.somethingWentWrong'), t), intent: 'danger' });
        setConfirming(false);
      },
    });
  };

  return (
    <Card className="sw-erm-networks" data-testid="erm-networks">
      <H4>{t('electricalRm.networks.title')}</H4>
      <p className="bp6-text-muted">{t('electricalRm.networks.ofSite')}</p>
      {networks.length === 0 ? (
        <p data-testid="erm-site-networks-none">{t('electricalRm.networks.none')}</p>
      ) : (
        <ul className="sw-erm-network-list" data-testid="erm-site-networks">
          {networks.map((network) => (
            <li key={network.id} data-testid="erm-site-network" data-network-id={network.id}>
              <strong>{network.name}</strong>{' '}
              <Tag minimal intent={network.room ? 'success' : 'none'}>
                {network.room
                  ? t('electricalRm.networks.inRoom', { room: network.room })
                  : t('electricalRm.networks.notInRoom')}
              </Tag>
            </li>
          ))}
        </ul>
      )}
      {canAssign ? (
        choices.length === 0 && !unassigned.isPending ? (
          <p className="bp6-text-muted" data-testid="erm-no-unassigned">
            {t('electricalRm.networks.noneUnassigned')}
          </p>
        ) : (
          <div className="sw-erm-assign">
            <FormGroup label={t('electricalRm.networks.unassigned')} labelFor="erm-unassigned-network">
              <HTMLSelect
                id="erm-unassigned-network"
                data-testid="erm-unassigned-select"
                value={picked}
                onChange={(event) => setPicked(event.currentTarget.value)}
              >
                <option value="">{t('electricalRm.networks.pick')}</option>
                {choices.map((network) => (
                  <option key={network.id} value={network.id}>
                    {network.name}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <Button
              intent="primary"
              data-testid="erm-assign"
              disabled={!pickedNetwork}
              text={t('electricalRm.networks.assign')}
              onClick={() => setConfirming(true)}
            />
          </div>
        )
      ) : (
        <Callout compact data-testid="erm-assign-read-only">
          {t('electricalRm.networks.readOnly')}
        </Callout>
      )}
      <ConfirmAlert
        isOpen={confirming}
        intent="primary"
        icon="link"
        busy={assignNetwork.isPending}
        escapeCancels
        confirmText={t('electricalRm.networks.assign')}
        onConfirm={assign}
        onCancel={() => setConfirming(false)}
      >
        <p data-testid="erm-assign-confirm">
          {t('electricalRm.networks.confirm', { network: pickedNetwork?.name ?? '', site: site.name })}
        </p>
      </ConfirmAlert>
    </Card>
  );
}
