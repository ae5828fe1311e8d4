import { can } from '../../domain/access';
import './workforce.css';
import { Button, HTMLTable } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { type NamedItem, type NameListKind, nameListQuery } from '../../api/workforce/nameLists';
import type { Area } from '../../domain/access';
import { formatCount } from '../../domain/numberFormat';
import { SiteListBody } from '../lists/SiteListBody';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { EditRowButton } from './EditRowButton';
import { NameDialog } from './NameDialog';
import { WorkforceToolbar } from './WorkforceToolbar';
import { matchesSearch } from './workforceForm';

interface NameListScreenProps {
  kind: NameListKind;
  area: Area;
  titleKey: string;
  /** The English label of spec §5 messages. */
  label: string;
  /** i18n prefix of this screen's texts. */
  texts: string;
  /** Columns after the name (the crews' members and assignment dates). */
  columns?: readonly ExtraColumn[];
  /** What opens when a row's name is clicked; nothing by default. */
  onOpen?: (item: NamedItem) => void;
  /** Shown below the list (the crews' member drawer). */
  children?: ReactNode;
}

export interface ExtraColumn {
  key: string;
  header: string;
  cell(item: NamedItem): ReactNode;
}

type Editing = { item: NamedItem | null } | null;

/** A site's worker roles, subcontractors or crews: search, create and rename. */
export function NameListScreen({
  kind,
  area,
  titleKey,
  label,
  texts,
  columns = [],
  onOpen,
  children,
}: NameListScreenProps) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const canWrite = user ? can(user.user_role, 'write', area) : false;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const siteId = site?.id ?? 0;
  const list = useQuery({ ...nameListQuery(api, siteId, kind), enabled: siteId > 0 });
  const items = (list.data ?? []).filter((item) => matchesSearch(item.name, search));
  const searching = search.trim() !== '';

  return (
    <section className="sw-workforce" data-testid={`workforce-${kind}`}>
      <ScreenTitle>{t(titleKey)}</ScreenTitle>
      <WorkforceToolbar
        search={search}
        onSearch={setSearch}
        count={list.data ? t(`${texts}.count`, { formatted: formatCount(list.data.length) }) : null}
        newText={canWrite && site ? t(`${texts}.new`) : null}
        onNew={() => setEditing({ item: null })}
      />
      <SiteListBody
        noSite={t('workforce.noSite')}
        list={list}
        isEmpty={items.length === 0}
        empty={{
          testId: 'workforce-empty',
          icon: searching ? 'search' : 'inbox',
          title: searching ? t('workforce.noMatches') : t(`${texts}.empty`),
          description: searching ? t('workforce.noMatchesHint') : undefined,
        }}
      >
        {() => (
          <HTMLTable striped interactive className="sw-workforce-table" data-testid="workforce-list">
            <thead>
              <tr>
                <th>{t('workforce.name')}</th>
                {columns.map((column) => (
                  <th key={column.key}>{column.header}</th>
                ))}
                {canWrite && <th className="sw-workforce-actions">{t('workforce.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} data-testid="workforce-row">
                  <td>
                    {onOpen ? (
                      <Button
                        minimal
                        small
                        text={item.name}
                        data-testid="workforce-open"
                        onClick={() => onOpen(item)}
                      />
                    ) : (
                      item.name
                    )}
                  </td>
                  {columns.map((column) => (
                    <td key={column.key}>{column.cell(item)}</td>
                  ))}
                  {canWrite && (
                    <td className="sw-workforce-actions">
                      <EditRowButton onClick={() => setEditing({ item })} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </SiteListBody>
      {children}
      {editing && site && (
        <NameDialog
          siteId={site.id}
          kind={kind}
          label={label}
          texts={texts}
          item={editing.item}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workforce.nameList(site.id, kind) });
          }}
        />
      )}
    </section>
  );
}

export function WorkerRolesScreen() {
  return (
    <NameListScreen
      kind="worker-roles"
      area="workerRoles"
      titleKey="screen.workerRoles"
      label="Worker role"
      texts="workforce.workerRoles"
    />
  );
}

export function SubcontractorsScreen() {
  return (
    <NameListScreen
      kind="subcontractors"
      area="subcontractors"
      titleKey="screen.subcontractors"
      label="Subcontractor"
      texts="workforce.subcontractors"
    />
  );
}
