import './electricalRm.css';
import { Button, Card, FormGroup, H3, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useElectricalRoomWrites, useSiteElectricalRooms } from '../../api/electricalRooms';
import { can } from '../../domain/access';
import { LIMITS } from '../../domain/limits';
import type { ElectricalRoomBuilding, SiteElectricalRooms } from '../../domain/schemas/electricalRooms';
import type { Site } from '../../domain/user';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { failureText, serverText } from '../shared/serverMessage';
import { useSelection } from '../shell/selection';
import { ElectricalRoomCard, FloorSelect } from './ElectricalRoomCard';
import { NetworkAssignment } from './NetworkAssignment';

/**
 * Electrical RM Installation (issue 19): the selected site's networks (and assigning the
 * unassigned ones to it), then per building its electrical rooms, each with the sinks and gateways
 * installed in it, their power and connection from the node diagnostics, and the installation
 * checklist with who completed each step and when, on the site's clock.
 */
export function ElectricalRmScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const { user } = useSession();
  const { site, loading } = useSelection();
  const rooms = useSiteElectricalRooms(api, site?.id ?? null);
  const data = rooms.data?.site_id === site?.id ? rooms.data : undefined;
  const canAssign = user ? can(user.user_role, 'write', 'networks') : false;

  let body: ReactNode;
  if (!site) {
    body =
      loading.clients || loading.sites ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        <NonIdealState icon="office" description={t('electricalRm.noSite')} />
      );
  } else if (rooms.isError && !data) {
    body = (
      <NonIdealState
        icon="error"
        description={t('electricalRm.loadFailed')}
        action={<Button text={t('electricalRm.retry')} onClick={() => void rooms.refetch()} />}
      />
    );
  } else if (!data) {
    body = <Spinner aria-label={t('common.loading')} />;
  } else {
    body = (
      <>
        <NetworkAssignment site={site} data={data} canAssign={canAssign} />
        {data.buildings.length === 0 && (
          <NonIdealState icon="office" description={t('electricalRm.building.noBuildings')} />
        )}
        {data.buildings.map((building) => (
          <BuildingSection key={building.id} site={site} building={building} available={data.available} />
        ))}
      </>
    );
  }
  return (
    <section className="sw-erm" data-testid="electrical-rm-screen">
      <ScreenTitle>{t('screen.electricalRm')}</ScreenTitle>
      {body}
    </section>
  );
}

function BuildingSection({
  site,
  building,
  available,
}: {
  site: Site;
  building: ElectricalRoomBuilding;
  available: SiteElectricalRooms['available'];
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section
      className="sw-erm-building"
      aria-labelledby={headingId}
      data-testid="erm-building"
      data-building-name={building.name}
    >
      <H3 id={headingId}>{building.name}</H3>
      {building.rooms.length === 0 && (
        <p className="bp6-text-muted" data-testid="erm-no-rooms">
          {t('electricalRm.building.noRooms')}
        </p>
      )}
      {building.rooms.map((room) => (
        <ElectricalRoomCard
          key={room.id}
          site={site}
          room={room}
          floors={building.floors}
          available={available}
        />
      ))}
      <AddRoomForm site={site} building={building} />
    </section>
  );
}

function AddRoomForm({ site, building }: { site: Site; building: ElectricalRoomBuilding }) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const { createRoom } = useElectricalRoomWrites(api, site.id);
  const [name, setName] = useState('');
  const [floor, setFloor] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    createRoom.mutate(
      { buildingId: building.id, body: { name, ...(floor === '' ? {} : { floor_id: Number(floor) }) } },
      {
        onSuccess: (reply) => {
          if (reply.message) void notify({ message: serverText(reply.message, t), intent: 'success' });
          setName('');
          setFloor('');
          setProblem(null);
        },
        onError: (error) => setProblem(failureText(error, t('common.somethingWentWrong'), t)),
      },
    );
  };
  return (
    <Card className="sw-erm-add-room" compact>
      <form className="sw-erm-room-form" data-testid="erm-add-room" onSubmit={submit}>
        <FormGroup
          label={t('electricalRm.room.name')}
          labelFor={`${id}-name`}
          intent={problem ? 'danger' : 'none'}
          helperText={problem ?? undefined}
        >
          <InputGroup
            id={`${id}-name`}
            data-testid="erm-room-name-input"
            value={name}
            maxLength={LIMITS.nameMax}
            placeholder={t('electricalRm.room.namePlaceholder')}
            intent={problem ? 'danger' : 'none'}
            onChange={(event) => setName(event.currentTarget.value)}
          />
        </FormGroup>
        <FloorSelect id={`${id}-floor`} floors={building.floors} value={floor} onChange={setFloor} />
        <Button
          type="submit"
          icon="add"
          intent="primary"
          loading={createRoom.isPending}
          data-testid="erm-room-add"
          text={t('electricalRm.room.add')}
        />
      </form>
    </Card>
  );
}
