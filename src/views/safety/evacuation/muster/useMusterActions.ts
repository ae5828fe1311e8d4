import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  addRollPerson,
  extendEvacuation,
  type MusterSession,
  markAccounted,
  redirectAssembly,
  undoMark,
} from '../../../../api/safety/muster';
import { notify } from '../../../notify';
import { useSafetyApi } from '../../../session/LiveProvider';
import { failureText } from '../../../shared/serverMessage';

type Subject = { workerId: number } | { rollPersonId: number };

/**
 * The marshal's calls, each with a toast: marks, undo, a person without a helmet, a larger area,
 * a redirect. The wall shows the outcome when the evacuation stream brings it, as every screen does.
 */
export function useMusterActions(session: MusterSession | null) {
  const { t } = useTranslation();
  const { api } = useSafetyApi();
  const failed = (error: unknown) =>
    void notify({ message: failureText(error, t('evacuation.marshal.failed'), t), intent: 'danger' });
  const ready = () => {
    if (!api || !session) throw new Error(t('evacuation.unavailable'));
    return { api, session };
  };

  const mark = useMutation({
    mutationFn: ({ subject, reason }: { subject: Subject; reason: string; name: string }) => {
      const { api, session } = ready();
      return markAccounted(api, session, subject, reason);
    },
    onSuccess: (_, { name }) =>
      void notify({ message: t('evacuation.marshal.marked', { name }), intent: 'success' }),
    onError: failed,
  });
  const unmark = useMutation({
    mutationFn: ({ markId }: { markId: number; name: string }) => {
      const { api, session } = ready();
      return undoMark(api, session, markId);
    },
    onSuccess: (_, { name }) =>
      void notify({ message: t('evacuation.marshal.undone', { name }), intent: 'primary' }),
    onError: failed,
  });
  const addPerson = useMutation({
    mutationFn: (person: { name: string; company: string; reason: string | null }) => {
      const { api, session } = ready();
      return addRollPerson(api, session, person);
    },
    onSuccess: (_, { name }) =>
      void notify({ message: t('evacuation.marshal.added', { name }), intent: 'success' }),
    onError: failed,
  });
  const extend = useMutation({
    mutationFn: (area: { floorIds: number[]; zoneIds: number[] }) => {
      const { api, session } = ready();
      return extendEvacuation(api, session, area);
    },
    onSuccess: () => void notify({ message: t('evacuation.marshal.extended'), intent: 'warning' }),
    onError: failed,
  });
  const redirect = useMutation({
    mutationFn: (zones: { unsafeZoneId: number; redirectZoneId: number; zoneName: string }) => {
      const { api, session } = ready();
      return redirectAssembly(api, session, {
        unsafeZoneId: zones.unsafeZoneId,
        redirectZoneId: zones.redirectZoneId,
      });
    },
    onSuccess: (_, { zoneName }) =>
      void notify({ message: t('evacuation.marshal.redirected', { zone: zoneName }), intent: 'warning' }),
    onError: failed,
  });
  return { mark, unmark, addPerson, extend, redirect };
}
