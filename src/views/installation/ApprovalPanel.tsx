import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  NonIdealState,
  Spinner,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type UnapprovedAnchor, unapproveAnchor } from '../../api/installation';
import { queryKeys } from '../../api/queryKeys';
import { failedApprovalChecks, liveLinkQuality } from '../../domain/anchorApproval';
import { displacementMetres } from '../../domain/geo';
import { type ApprovalSettings, INSTALLATION_LIMITS } from '../../domain/schemas/installation';
import type { NodeInformation } from '../../domain/schemas/nodes';
import { reportError } from '../maps/mapsErrors';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { formatCount } from '../shared/nodeFormat';
import type { AnchorApproval } from './useAnchorApproval';

const metres = (value: number) => formatCount(Math.round(value * 100) / 100);

interface ApprovalPanelProps {
  floorId: number;
  siteId: number;
  canWrite: boolean;
  approval: AnchorApproval;
  unapproved: readonly UnapprovedAnchor[];
  loading: boolean;
  /** The floor's approved anchors (node-information). */
  approved: readonly NodeInformation[];
  settings: ApprovalSettings;
}

/**
 * Anchor approval (spec §4): the floor's unapproved anchors, the one picked placed by dragging
 * its marker on the canvas (or a click where it is) or taken from its planning anchor, a
 * confirmation with the evidence and an override reason when a check fails, the save and its
 * failure; and the approved anchors with Unapprove.
 */
export function ApprovalPanel(props: ApprovalPanelProps) {
  const { floorId, siteId, canWrite, approval, unapproved, loading, approved, settings } = props;
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [unapproving, setUnapproving] = useState<NodeInformation | null>(null);
  const { state, selected, placement } = approval;
  const confirming = state === 'confirming' || state === 'saving';

  const unapprove = useMutation({
    mutationFn: (node: NodeInformation) => unapproveAnchor(api, node.id),
    onSuccess: (_, node) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.installation.unapproved(siteId, floorId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.nodeMap.floor(floorId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.nodes.bySite(siteId) });
      void notify({
        message: t('installation.approval.ui.unapproved', { name: node.nodeId }),
        intent: 'success',
      });
      setUnapproving(null);
    },
    onError: (error) => {
      reportError(error, t('common.somethingWentWrong'));
      setUnapproving(null);
    },
  });

  return (
    <div className="sw-install-approval" data-testid="approval-panel" data-state={state}>
      <section className="sw-install-card" aria-labelledby="sw-install-unapproved-title">
        <div className="sw-install-card-head">
          <h2 id="sw-install-unapproved-title">{t('installation.approval.ui.unapprovedTitle')}</h2>
          <Tag minimal round>
            {formatCount(unapproved.length)}
          </Tag>
        </div>
        {loading ? (
          <Spinner size={20} aria-label={t('common.loading')} />
        ) : unapproved.length === 0 ? (
          <NonIdealState icon="tick-circle" description={t('installation.approval.ui.noneUnapproved')} />
        ) : (
          <ul className="sw-install-list" data-testid="unapproved-list">
            {unapproved.map((anchor) => {
              const picked = selected?.inventory_id === anchor.inventory_id;
              return (
                <li
                  key={anchor.inventory_id}
                  data-testid="unapproved-item"
                  data-node-id={anchor.wnt_inventory_id}
                  data-selected={picked || undefined}
                >
                  <Button
                    minimal
                    className="sw-install-list-name"
                    active={picked}
                    aria-pressed={picked}
                    disabled={!canWrite || state === 'saving'}
                    onClick={() => approval.select(anchor)}
                  >
                    <span dir="ltr">{anchor.wnt_inventory_id}</span>
                  </Button>
                  <span className="sw-install-figure">
                    {anchor.link_quality === null
                      ? t('installation.approval.ui.noQuality')
                      : t('installation.approval.ui.quality', { value: formatCount(anchor.link_quality) })}
                    {anchor.planning_anchor && anchor.planning_anchor.distance_m !== null && (
                      <>
                        {' · '}
                        {t('installation.approval.ui.fromPlan', {
                          distance: metres(anchor.planning_anchor.distance_m),
                          name: anchor.planning_anchor.anchor_id,
                        })}
                      </>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {selected && (
        <section
          className="sw-install-card"
          data-testid="approval-selected"
          aria-labelledby="sw-install-approve-title"
        >
          <div className="sw-install-card-head">
            <h2 id="sw-install-approve-title">
              {t('installation.approval.ui.approveTitle')} <span dir="ltr">{selected.wnt_inventory_id}</span>
            </h2>
          </div>
          <p className="sw-install-hint">{t('installation.approval.ui.placeHint')}</p>
          {selected.planning_anchor && (
            <Button
              icon="map-marker"
              data-testid="approval-use-plan"
              disabled={!approval.canUsePlanning}
              onClick={() =>
                approval.place(
                  { lat: selected.planning_anchor!.lat, long: selected.planning_anchor!.long },
                  'planning',
                )
              }
            >
              {t('installation.approval.ui.usePlan', { name: selected.planning_anchor.anchor_id })}
            </Button>
          )}
          <p data-testid="approval-placement" aria-live="polite">
            {placement
              ? t(`installation.approval.ui.placed.${placement.source}`, {
                  lat: placement.lat.toFixed(6),
                  long: placement.long.toFixed(6),
                  name: selected.planning_anchor?.anchor_id ?? '',
                })
              : t('installation.approval.ui.notPlaced')}
          </p>
          {state === 'failure' && (
            <Callout intent="danger" icon="error" data-testid="approval-failure">
              <p>{approval.error}</p>
              {approval.problems.length > 0 && (
                <ul>
                  {approval.problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              )}
            </Callout>
          )}
          <div className="sw-install-row">
            {state === 'failure' ? (
              <>
                <Button
                  intent="primary"
                  icon="refresh"
                  data-testid="approval-retry"
                  disabled={!approval.canRetry}
                  onClick={approval.retry}
                >
                  {t('installation.approval.ui.retry')}
                </Button>
                <Button icon="arrow-left" disabled={!approval.canBack} onClick={approval.back}>
                  {t('installation.approval.ui.back')}
                </Button>
              </>
            ) : (
              <Button
                intent="primary"
                icon="confirm"
                data-testid="approval-confirm"
                disabled={!approval.canConfirm}
                onClick={approval.openConfirm}
              >
                {t('installation.approval.ui.confirm')}
              </Button>
            )}
            <Button
              data-testid="approval-cancel"
              disabled={!approval.canCancel || state === 'saving'}
              onClick={approval.cancel}
            >
              {t('common.cancel')}
            </Button>
          </div>
        </section>
      )}

      <ApprovedList
        approved={approved}
        canWrite={canWrite}
        busyId={unapprove.isPending ? (unapprove.variables?.id ?? null) : null}
        onUnapprove={setUnapproving}
      />

      <ConfirmDialog approval={approval} settings={settings} isOpen={confirming} />

      <ConfirmAlert
        isOpen={unapproving !== null}
        intent="warning"
        icon="undo"
        busy={unapprove.isPending}
        escapeCancels
        confirmText={t('installation.approval.ui.unapprove')}
        onCancel={() => setUnapproving(null)}
        onConfirm={() => unapproving && unapprove.mutate(unapproving)}
      >
        <p data-testid="unapprove-question">
          {t('installation.approval.ui.unapproveQuestion', { name: unapproving?.nodeId ?? '' })}
        </p>
      </ConfirmAlert>
    </div>
  );
}

function ApprovedList({
  approved,
  canWrite,
  busyId,
  onUnapprove,
}: {
  approved: readonly NodeInformation[];
  canWrite: boolean;
  busyId: number | null;
  onUnapprove(node: NodeInformation): void;
}) {
  const { t } = useTranslation();
  return (
    <section
      className="sw-install-card"
      data-testid="approved-list"
      aria-labelledby="sw-install-approved-title"
    >
      <div className="sw-install-card-head">
        <h2 id="sw-install-approved-title">{t('installation.approval.ui.approvedTitle')}</h2>
        <Tag minimal round>
          {formatCount(approved.length)}
        </Tag>
      </div>
      {approved.length === 0 ? (
        <p className="sw-install-hint">{t('installation.approval.ui.noneApproved')}</p>
      ) : (
        <ul className="sw-install-list">
          {approved.map((node) => (
            <li key={node.id} data-testid="approved-item" data-node-id={node.nodeId}>
              <span className="sw-install-list-name" dir="ltr">
                {node.nodeId}
              </span>
              {canWrite && (
                <Button
                  small
                  icon="undo"
                  loading={busyId === node.id}
                  aria-label={t('installation.approval.ui.unapproveOf', { name: node.nodeId })}
                  onClick={() => onUnapprove(node)}
                >
                  {t('installation.approval.ui.unapprove')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The confirmation: the evidence in the user's language (distance to the plan against the
 * tolerance, live link quality against the site's minimum), each passed or failed by the shared
 * rule (src/domain/anchorApproval.ts), and the override reason required when one fails.
 */
function ConfirmDialog({
  approval,
  settings,
  isOpen,
}: {
  approval: AnchorApproval;
  settings: ApprovalSettings;
  isOpen: boolean;
}) {
  const { t } = useTranslation();
  const { selected, placement, state } = approval;
  if (!selected) return null;
  const fromPlan = placement?.source === 'planning' && selected.planning_anchor !== null;
  // The same evidence the machine judged (anchorApproval.machine.ts approvalProblems), by check.
  const distanceM = selected.computed && placement ? displacementMetres(placement, selected.computed) : null;
  const reportedAt = selected.last_seen === null ? null : Date.parse(selected.last_seen);
  const linkQuality = liveLinkQuality(
    selected.link_quality,
    Number.isFinite(reportedAt) ? reportedAt : null,
    Date.now(),
  );
  const failed = failedApprovalChecks(
    {
      installedName: selected.wnt_inventory_id,
      planningName: fromPlan ? (selected.planning_anchor?.anchor_id ?? null) : null,
      distanceM,
      linkQuality,
    },
    settings,
  ).map((check) => check.check);
  const positionFails = failed.includes('position');
  const qualityFails = failed.includes('link_quality');
  const needsReason = approval.problems.length > 0;
  const saving = state === 'saving';
  return (
    <Dialog
      isOpen={isOpen}
      title={t('installation.approval.ui.confirmTitle', { name: selected.wnt_inventory_id })}
      onClose={() => !saving && approval.back()}
      canEscapeKeyClose={!saving}
    >
      <div data-testid="approval-dialog">
        <DialogBody>
          <table className="sw-install-evidence">
            <tbody>
              <tr data-testid="evidence-position" data-failed={positionFails || undefined}>
                <th scope="row">{t('installation.approval.ui.evidencePosition')}</th>
                <td>
                  {distanceM === null
                    ? t('installation.approval.ui.noPosition')
                    : fromPlan
                      ? t('installation.approval.ui.distanceToPlan', {
                          distance: metres(distanceM),
                          name: selected.planning_anchor?.anchor_id ?? '',
                        })
                      : t('installation.approval.ui.distanceToPlaced', { distance: metres(distanceM) })}
                </td>
                <td>{t('installation.approval.ui.tolerance', { value: metres(settings.tolerance_m) })}</td>
                <td>
                  <Tag intent={positionFails ? 'danger' : 'success'}>
                    {positionFails
                      ? t('installation.approval.ui.fails')
                      : t('installation.approval.ui.passes')}
                  </Tag>
                </td>
              </tr>
              <tr data-testid="evidence-quality" data-failed={qualityFails || undefined}>
                <th scope="row">{t('installation.approval.ui.evidenceQuality')}</th>
                <td>
                  {linkQuality === null
                    ? t('installation.approval.ui.noLiveQuality')
                    : t('installation.approval.ui.quality', { value: formatCount(linkQuality) })}
                </td>
                <td>
                  {t('installation.approval.ui.minimum', { value: formatCount(settings.min_link_quality) })}
                </td>
                <td>
                  <Tag intent={qualityFails ? 'danger' : 'success'}>
                    {qualityFails
                      ? t('installation.approval.ui.fails')
                      : t('installation.approval.ui.passes')}
                  </Tag>
                </td>
              </tr>
            </tbody>
          </table>
          {needsReason && (
            <FormGroup
              label={t('installation.approval.ui.reason')}
              labelFor="sw-install-reason"
              helperText={t('installation.approval.ui.reasonHelp', {
                count: INSTALLATION_LIMITS.overrideReasonMax,
              })}
            >
              <TextArea
                id="sw-install-reason"
                data-testid="approval-reason"
                fill
                autoFocus
                maxLength={INSTALLATION_LIMITS.overrideReasonMax}
                value={approval.overrideReason}
                onChange={(e) => approval.setReason(e.currentTarget.value)}
              />
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button disabled={saving} onClick={approval.back}>
                {t('installation.approval.ui.back')}
              </Button>
              <Button
                intent={needsReason ? 'warning' : 'primary'}
                data-testid="approval-submit"
                loading={saving}
                disabled={!approval.canSubmit}
                onClick={approval.submit}
              >
                {needsReason
                  ? t('installation.approval.ui.approveAnyway')
                  : t('installation.approval.ui.approve')}
              </Button>
            </>
          }
        />
      </div>
    </Dialog>
  );
}
