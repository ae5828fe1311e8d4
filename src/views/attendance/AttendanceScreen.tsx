import './attendance.css';
import '../shared/reportScreen.css';
import { Button, Card, FormGroup, HTMLSelect, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AttendanceParams, attendanceQuery, fetchAttendanceWorkbook } from '../../api/attendance';
import { nameListQuery } from '../../api/workforce/nameLists';
import { workshiftsQuery } from '../../api/workforce/workshifts';
import { can } from '../../domain/access';
import { ATTENDANCE_MAX_DAYS, addDays } from '../../domain/attendance';
import { calendarDateIn } from '../../domain/calendarDate';
import { formatCount, formatHoursOrNA } from '../../domain/numberFormat';
import type { AttendanceRow } from '../../domain/schemas/attendance';
import { SiteListBody } from '../lists/SiteListBody';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession, useTokenSource } from '../session/SessionProvider';
import { saveFile } from '../shared/saveFile';
import { useSelection } from '../shell/selection';
import { dayText, siteClock } from './attendanceFormat';
import { HeadcountChart } from './HeadcountChart';
import { SubcontractorTotals } from './SubcontractorTotals';

const PER_PAGE = 50;
type FilterKey = 'crew_id' | 'subcontractor_id' | 'worker_role_id' | 'workshift_id';

/** The daily attendance report (/dailyAttendanceReport): per worker and site day, with totals and headcount. */
export function AttendanceScreen() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const tokenSource = useTokenSource();
  const { user } = useSession();
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const timeZone = site?.timezone ?? 'UTC';
  const role = user?.user_role;
  const may = (area: Parameters<typeof can>[2]) => (role ? can(role, 'open', area) : false);
  const today = calendarDateIn(timeZone);
  const [params, setParams] = useState<AttendanceParams>({
    from: today,
    to: today,
    page: 1,
    perPage: PER_PAGE,
  });
  const report = useQuery({ ...attendanceQuery(api, siteId, params), enabled: siteId > 0 });
  const crews = useQuery({ ...nameListQuery(api, siteId, 'crews'), enabled: siteId > 0 && may('crews') });
  const subcontractors = useQuery({
    ...nameListQuery(api, siteId, 'subcontractors'),
    enabled: siteId > 0 && may('subcontractors'),
  });
  const roles = useQuery({
    ...nameListQuery(api, siteId, 'worker-roles'),
    enabled: siteId > 0 && may('workerRoles'),
  });
  const shifts = useQuery({ ...workshiftsQuery(api, siteId), enabled: siteId > 0 && may('workshifts') });
  const exporting = useMutation({
    mutationFn: () => fetchAttendanceWorkbook(tokenSource, siteId, params),
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
    onError: (error) => void notify({ message: error.message, intent: 'danger' }),
  });

  const rtl = i18n.dir() === 'rtl';
  const data = report.data;
  const update = (next: Partial<AttendanceParams>) =>
    setParams((current) => ({ ...current, ...next, page: 1 }));
  const pickDay = (key: 'from' | 'to', value: string) => {
    if (!value) return;
    const next = { from: params.from ?? today, to: params.to ?? today, [key]: value };
    if (next.from > next.to) next[key === 'from' ? 'to' : 'from'] = value;
    // A range longer than a month keeps the day just picked and moves the other end.
    if (addDays(next.from, ATTENDANCE_MAX_DAYS - 1) < next.to) {
      if (key === 'from') next.to = addDays(next.from, ATTENDANCE_MAX_DAYS - 1);
      else next.from = addDays(next.to, 1 - ATTENDANCE_MAX_DAYS);
    }
    update(next);
  };
  const filterSelect = (
    key: FilterKey,
    label: string,
    options: { id: number; name: string }[] | undefined,
  ) =>
    options ? (
      <FormGroup label={label} labelFor={`attendance-${key}`}>
        <HTMLSelect
          id={`attendance-${key}`}
          data-testid={`attendance-${key}`}
          value={params[key] ?? ''}
          onChange={(event) =>
            update({ [key]: event.currentTarget.value ? Number(event.currentTarget.value) : undefined })
          }
        >
          <option value="">{t('attendance.filters.all')}</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    ) : null;

  const page = params.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.row_count / PER_PAGE)) : 1;
  return (
    <section className="sw-report-screen" data-testid="attendance-screen">
      <ScreenTitle>{t('screen.attendance')}</ScreenTitle>
      <div className="sw-report-filters" data-testid="attendance-filters">
        <FormGroup label={t('attendance.filters.from')} labelFor="attendance-from">
          <InputGroup
            id="attendance-from"
            data-testid="attendance-from"
            type="date"
            value={params.from ?? today}
            onValueChange={(value) => pickDay('from', value)}
          />
        </FormGroup>
        <FormGroup label={t('attendance.filters.to')} labelFor="attendance-to">
          <InputGroup
            id="attendance-to"
            data-testid="attendance-to"
            type="date"
            value={params.to ?? today}
            onValueChange={(value) => pickDay('to', value)}
          />
        </FormGroup>
        {filterSelect('crew_id', t('attendance.filters.crew'), crews.data)}
        {filterSelect('subcontractor_id', t('attendance.filters.subcontractor'), subcontractors.data)}
        {filterSelect('worker_role_id', t('attendance.filters.role'), roles.data)}
        {filterSelect('workshift_id', t('attendance.filters.shift'), shifts.data)}
        <Button
          icon="export"
          text={t('attendance.export')}
          data-testid="attendance-export"
          loading={exporting.isPending}
          disabled={!data || data.row_count === 0}
          onClick={() => exporting.mutate()}
        />
      </div>
      <SiteListBody
        noSite={t('attendance.noSite')}
        list={report}
        isEmpty={false}
        empty={{ testId: 'attendance-empty', icon: 'inbox', title: t('attendance.empty') }}
      >
        {() =>
          data ? (
            <>
              <div className="sw-report-panels">
                <Card compact>
                  <h3 className="bp6-heading">{t('attendance.headcount.title')}</h3>
                  <HeadcountChart
                    headcount={data.headcount}
                    series={t('attendance.headcount.series')}
                    rtl={rtl}
                    format={(value) => formatHoursOrNA(value)}
                  />
                </Card>
                <Card compact>
                  <h3 className="bp6-heading">{t('attendance.totals.title')}</h3>
                  <SubcontractorTotals totals={data.totals} />
                </Card>
              </div>
              {data.row_count === 0 ? (
                <p data-testid="attendance-empty">{t('attendance.empty')}</p>
              ) : (
                <AttendanceTable rows={data.rows} timeZone={data.timezone} />
              )}
              <div className="sw-attendance-pager" data-testid="attendance-pager">
                <Button
                  icon={rtl ? 'chevron-right' : 'chevron-left'}
                  aria-label={t('attendance.previous')}
                  disabled={page <= 1}
                  onClick={() => setParams((current) => ({ ...current, page: page - 1 }))}
                />
                <span>
                  {t('attendance.page', {
                    page: formatCount(page),
                    pages: formatCount(pages),
                    rows: formatCount(data.row_count),
                  })}
                </span>
                <Button
                  icon={rtl ? 'chevron-left' : 'chevron-right'}
                  aria-label={t('attendance.next')}
                  disabled={page >= pages}
                  onClick={() => setParams((current) => ({ ...current, page: page + 1 }))}
                />
              </div>
            </>
          ) : null
        }
      </SiteListBody>
    </section>
  );
}

function AttendanceTable({ rows, timeZone }: { rows: readonly AttendanceRow[]; timeZone: string }) {
  const { t } = useTranslation();
  const number = (value: number | null | undefined) => (
    <td className="sw-attendance-number">{formatHoursOrNA(value)}</td>
  );
  return (
    <div className="sw-attendance-table-wrap">
      <HTMLTable compact striped className="sw-attendance-table" data-testid="attendance-table">
        <thead>
          <tr>
            <th>{t('attendance.columns.day')}</th>
            <th>{t('attendance.columns.worker')}</th>
            <th>{t('attendance.columns.subcontractor')}</th>
            <th>{t('attendance.columns.crew')}</th>
            <th>{t('attendance.columns.shift')}</th>
            <th>{t('attendance.columns.firstSeen')}</th>
            <th>{t('attendance.columns.lastSeen')}</th>
            <th className="sw-attendance-number">{t('attendance.columns.onSite')}</th>
            <th className="sw-attendance-number">{t('attendance.columns.inShift')}</th>
            <th className="sw-attendance-number">{t('attendance.columns.overtime')}</th>
            <th>{t('attendance.columns.manual')}</th>
            <th className="sw-attendance-number">{t('attendance.columns.effective')}</th>
            <th>{t('attendance.columns.status')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.worker_id}-${row.day}`} data-testid="attendance-row">
              <td>{dayText(row.day)}</td>
              <td>{row.worker_name}</td>
              <td>{row.subcontractor_name ?? '—'}</td>
              <td>{row.crew_name ?? '—'}</td>
              <td>
                {row.workshift_name ? `${row.workshift_name} (${row.shift_start}–${row.shift_end})` : '—'}
              </td>
              <td>{siteClock(row.first_seen, timeZone)}</td>
              <td>{siteClock(row.last_seen, timeZone)}</td>
              {number(row.on_site_hours)}
              {number(row.shift_hours)}
              {number(row.overtime_hours)}
              <td data-testid="attendance-manual">
                {row.manual === null
                  ? '—'
                  : row.manual.present
                    ? `${row.manual.check_in ?? '?'}–${row.manual.check_out ?? '?'} (${formatHoursOrNA(row.manual.hours)})`
                    : t('attendance.status.absent')}
              </td>
              {number(row.effective_hours)}
              <td>
                <Tag minimal intent={statusIntent(row)} data-testid="attendance-status">
                  {t(`attendance.status.${row.status}`)}
                </Tag>
                {row.late ? (
                  <Tag minimal intent="warning" className="sw-attendance-late">
                    {t('attendance.status.late')}
                  </Tag>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

function statusIntent(row: AttendanceRow) {
  if (row.status === 'absent') return 'danger';
  if (row.status === 'present') return 'success';
  return 'none';
}
