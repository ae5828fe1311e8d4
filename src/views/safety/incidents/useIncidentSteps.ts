import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { escalateSafetyIncident, settleSafetyIncident } from '../../../api/safety/incidents';
import type { IncidentAction } from '../../../domain/escalation';
import type { SafetyIncident } from '../../../domain/incidents';
import { notify } from '../../notify';
import { escalationFailure } from './escalationText';

const DONE_KEYS: Record<IncidentAction, string> = {
  escalate: 'safety.incidents.escalated',
  acknowledge: 'safety.incidents.acknowledgedToast',
  resolve: 'safety.incidents.resolvedToast',
};

/**
 * Escalate (one level up, from the level the user saw), acknowledge and resolve, each followed by
 * a toast and a refresh of every incident list; `onSettled` closes whatever asked for it.
 */
export function useIncidentSteps(api: ApiClient, onSettled: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const step = useMutation({
    mutationFn: ({ incident, action }: { incident: SafetyIncident; action: IncidentAction }) =>
      action === 'escalate'
        ? escalateSafetyIncident(api, incident.id, incident.level)
        : settleSafetyIncident(api, action, incident.id),
    onSuccess: (_incident, { action }) => {
      void notify({ message: t(DONE_KEYS[action]), intent: 'success' });
    },
    onError: (error) => {
      void notify({
        message: escalationFailure(error, t('safety.incidents.stepFailed'), t),
        intent: 'danger',
      });
    },
    onSettled: () => {
      onSettled();
      return queryClient.invalidateQueries({ queryKey: queryKeys.safety.allIncidents });
    },
  });
  return {
    run: (incident: SafetyIncident, action: IncidentAction) => step.mutate({ incident, action }),
    busy: step.isPending,
    /** The incident and action under way, to spin the right button. */
    pending: step.isPending ? step.variables : undefined,
  };
}
