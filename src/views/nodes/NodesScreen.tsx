import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../screens/ScreenTitle';
import { DeviceTokensPanel } from './DeviceTokensPanel';
import './nodes.css';

/** Nodes Management: for now the selected site's device tokens, the gateways' credentials. */
export function NodesScreen() {
  const { t } = useTranslation();
  return (
    <section className="sw-nodes" data-testid="nodes-screen">
      <ScreenTitle>{t('screen.nodes')}</ScreenTitle>
      <DeviceTokensPanel />
    </section>
  );
}
