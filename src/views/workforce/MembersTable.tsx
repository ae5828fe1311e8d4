import { HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatAssignmentDate } from '../../domain/currentAssignment';

export interface MemberRow {
  workerId: number;
  name: string;
  assignedAt: string | null;
  /** The member's other assignment: its shift in a crew's list, its crew in a shift's. */
  other: string | null;
}

interface MembersTableProps {
  members: readonly MemberRow[];
  /** Heading of the `other` column. */
  otherHeader: string;
  empty: string;
  testId: string;
  rowTestId: string;
}

/** The current members of a crew or a work shift with their assignment dates (DD/MM/YYYY). */
export function MembersTable({ members, otherHeader, empty, testId, rowTestId }: MembersTableProps) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId}>
      {members.length === 0 ? (
        <NonIdealState icon="people" description={empty} />
      ) : (
        <HTMLTable compact striped className="sw-workforce-table">
          <thead>
            <tr>
              <th>{t('workforce.crews.worker')}</th>
              <th>{t('workforce.crews.assignedAt')}</th>
              <th>{otherHeader}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.workerId} data-testid={rowTestId}>
                <td>{member.name}</td>
                <td dir="ltr">{member.assignedAt ? formatAssignmentDate(member.assignedAt) : '-'}</td>
                <td>{member.other ?? '-'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
