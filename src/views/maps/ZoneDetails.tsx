import { Classes, Drawer, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Zone } from '../../domain/floor';

interface ZoneDetailsProps {
  zone: Zone | null;
  onClose(): void;
}

/** The zone selected on the canvas or in the list; the floor stays usable beside it. */
export function ZoneDetails({ zone, onClose }: ZoneDetailsProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      isOpen={zone !== null}
      onClose={onClose}
      title={zone?.name ?? t('maps.zone.details')}
      icon="polygon-filter"
      size="320px"
      hasBackdrop={false}
      enforceFocus={false}
      autoFocus={false}
      canOutsideClickClose={false}
      className="sw-zone-details"
    >
      {zone && (
        <div className={Classes.DRAWER_BODY} data-testid="zone-details">
          <div className={Classes.DIALOG_BODY}>
            <dl className="sw-maps-details">
              <dt>{t('maps.zone.name')}</dt>
              <dd data-testid="zone-details-name">
                <bdi>{zone.name}</bdi>
              </dd>
              <dt>{t('maps.zone.kind')}</dt>
              <dd>
                <Tag minimal className={`sw-zone-kind sw-zone-kind--${zone.kind}`}>
                  {t(`maps.zone.kinds.${zone.kind}`)}
                </Tag>
              </dd>
              <dt>{t('maps.zone.vertices')}</dt>
              <dd>
                <ol className="sw-maps-vertices" dir="ltr">
                  {zone.coordinates.map(([long, lat], index) => (
                    // Vertices have no identity but their place in the ring.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the ring's order is the identity.
                    <li key={index}>
                      {lat.toFixed(6)}, {long.toFixed(6)}
                    </li>
                  ))}
                </ol>
              </dd>
            </dl>
          </div>
        </div>
      )}
    </Drawer>
  );
}
