import { useTranslation } from 'react-i18next';
import type { EvacuationWorker } from '../../../domain/evacuation';

/** Spec §3: a missing contact, zone, floor or last-seen reads -NA-. */
export const NA = '-NA-';

/**
 * Where to go and find an included worker, as table cells: zone, floor (with its building) and a
 * contact number to call; shared by the not-safe list and the summary's never-accounted table.
 */
export function WhereToFindCells({
  worker,
  floorPlace,
}: {
  worker: EvacuationWorker;
  floorPlace(floorId: number | null): string | null;
}) {
  return (
    <>
      <td>
        <bdi>{worker.zone_name ?? NA}</bdi>
      </td>
      <td>
        <bdi>{floorPlace(worker.blueprint_id) ?? worker.blueprint_name ?? NA}</bdi>
      </td>
      <td>
        {worker.contact_number ? (
          <a href={`tel:${worker.contact_number}`} dir="ltr">
            {worker.contact_number}
          </a>
        ) : (
          NA
        )}
      </td>
    </>
  );
}

/** The headings of `WhereToFindCells`, in the same order. */
export function WhereToFindHeadings() {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col">{t('evacuation.notSafe.zone')}</th>
      <th scope="col">{t('evacuation.notSafe.floor')}</th>
      <th scope="col">{t('evacuation.notSafe.contact')}</th>
    </>
  );
}
