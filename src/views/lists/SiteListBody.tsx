import { Button, type IconName, NonIdealState, Spinner } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelection } from '../shell/selection';

export interface EmptyListState {
  /** data-testid of the empty state's wrapper. */
  testId: string;
  icon: IconName;
  title: string;
  description?: string;
}

interface SiteListBodyProps {
  /** Shown when no site is selected (and none is loading). */
  noSite: string;
  list: { isPending: boolean; isError: boolean; refetch(): unknown };
  isEmpty: boolean;
  empty: EmptyListState;
  /** Renders the list itself; called only once it has rows to show. */
  children: () => ReactNode;
}

/** The states every site list screen walks through: no site, loading, failed (retry), empty, the list. */
export function SiteListBody({ noSite, list, isEmpty, empty, children }: SiteListBodyProps) {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  if (!site) {
    return loading.clients || loading.sites ? (
      <Spinner aria-label={t('common.loading')} />
    ) : (
      <NonIdealState icon="office" description={noSite} />
    );
  }
  if (list.isPending) return <Spinner aria-label={t('common.loading')} />;
  if (list.isError) {
    return (
      <NonIdealState
        icon="error"
        description={t('common.somethingWentWrong')}
        action={<Button text={t('common.retry')} onClick={() => void list.refetch()} />}
      />
    );
  }
  if (isEmpty) {
    return (
      <div data-testid={empty.testId}>
        <NonIdealState icon={empty.icon} title={empty.title} description={empty.description} />
      </div>
    );
  }
  return <>{children()}</>;
}
