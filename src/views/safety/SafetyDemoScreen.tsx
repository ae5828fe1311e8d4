import './safety.css';
import { Button, Callout, Card, H5, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ApiClient } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { runSafetyDrill, safetyDemoQuery } from '../../api/safety/safetyDemo';
import { can } from '../../domain/access';
import type { Site } from '../../domain/user';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useSafetyApi } from '../session/LiveProvider';
import { useSession } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { useSelection } from '../shell/selection';

const WALL_SCREEN = '/safetyevacuation';
const STEPS = ['start', 'walk', 'acknowledge', 'offline', 'end'] as const;

/** Safety Demo (/safteyDemo): runs the scripted evacuation of the demo site. */
export function SafetyDemoScreen() {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  const safety = useSafetyApi();

  return (
    <section className="sw-safety sw-safety-demo" data-testid="safety-demo-screen">
      <ScreenTitle>{t('screen.safetyDemo')}</ScreenTitle>
      <p>{t('safety.demo.intro')}</p>
      <Card compact>
        <H5>{t('safety.demo.stepsTitle')}</H5>
        <ol>
          {STEPS.map((step) => (
            <li key={step}>{t(`safety.demo.steps.${step}`)}</li>
          ))}
        </ol>
      </Card>
      {!site ? (
        loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" description={t('safety.noSite')} />
        )
      ) : safety.error ? (
        <Callout intent="danger">{(safety.error as Error).message}</Callout>
      ) : !safety.api ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        <DemoDrill key={site.id} api={safety.api} site={site} />
      )}
    </section>
  );
}

function DemoDrill({ api, site }: { api: ApiClient; site: Site }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const canRun = user ? can(user.user_role, 'write', 'safetyDemo') : false;
  const status = useQuery({ ...safetyDemoQuery(api, site.id), refetchInterval: 10_000 });
  const drill = useMutation({
    mutationFn: () => runSafetyDrill(api, site.id),
    onSuccess: () => {
      setConfirming(false);
      void notify({ message: t('safety.demo.started'), intent: 'success' });
    },
    onError: () => setConfirming(false),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.safety.demo(site.id) }),
  });

  if (status.isPending) return <Spinner aria-label={t('safety.demo.loading')} />;
  if (status.isError)
    return (
      <Callout intent="danger" data-testid="safety-demo-error">
        {status.error.message}{' '}
        <Button variant="minimal" onClick={() => void status.refetch()} text={t('common.retry')} />
      </Callout>
    );
  const { isDemoSite, simulatorOn, running } = status.data;
  if (!isDemoSite)
    return (
      <Callout intent="warning" icon="info-sign" data-testid="safety-demo-refusal">
        {t('safety.demo.notDemoSite')}
      </Callout>
    );
  if (!simulatorOn)
    return (
      <Callout intent="warning" icon="info-sign" data-testid="safety-demo-refusal">
        {t('safety.demo.simulatorOff')}
      </Callout>
    );

  return (
    <>
      {running && (
        <Callout intent="primary" data-testid="safety-demo-running">
          {t('safety.demo.running')}
        </Callout>
      )}
      {drill.isError && (
        <Callout intent="danger" data-testid="safety-demo-error">
          {drill.error.message}
        </Callout>
      )}
      {!canRun && <Callout>{t('safety.demo.readOnly')}</Callout>}
      <div className="sw-safety-demo-actions">
        <Button
          intent="danger"
          size="large"
          icon="play"
          text={t('safety.demo.run')}
          disabled={!canRun || running !== null || drill.isPending}
          data-testid="run-drill"
          onClick={() => setConfirming(true)}
        />
        {(running !== null || drill.isSuccess) && (
          <Link href={WALL_SCREEN} className="bp6-button bp6-intent-primary" data-testid="watch-drill">
            {t('safety.demo.watch')}
          </Link>
        )}
      </div>
      <ConfirmAlert
        isOpen={confirming}
        intent="danger"
        icon="warning-sign"
        busy={drill.isPending}
        escapeCancels
        confirmText={t('safety.demo.confirm')}
        onConfirm={() => drill.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <H5>{t('safety.demo.confirmTitle')}</H5>
        <p>{t('safety.demo.confirmBody', { site: site.name })}</p>
      </ConfirmAlert>
    </>
  );
}
