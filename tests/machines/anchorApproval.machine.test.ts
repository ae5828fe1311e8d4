import { describe, expect, it } from 'vitest';
import {
  anchorApprovalStateOf,
  approvalProblems,
  selectCanConfirm,
  selectCanPlace,
  selectCanSubmit,
  selectCanUsePlanning,
} from '../../src/machines/anchorApproval.machine';
import {
  DRAGGED,
  FAR,
  FLOOR_ID,
  NEAR,
  NOW,
  planningPoint,
  SETTINGS,
  SILENT,
  startAnchorApproval,
} from './helpers/anchorApprovalHarness';

type Harness = ReturnType<typeof startAnchorApproval>;
const state = (sut: Harness) => anchorApprovalStateOf(sut.snapshot());

const FAR_PROBLEMS = [
  'ANC-0102 is 1.2 m from P-04; the tolerance is 0.5 m',
  "Link quality 22 is below the site's 50",
];

function confirming(anchor = NEAR, source: 'planning' | 'drag' = 'planning') {
  const sut = startAnchorApproval();
  sut.send({ type: 'anchor.select', anchor });
  sut.send({ type: 'placement.set', point: source === 'planning' ? planningPoint(anchor) : DRAGGED, source });
  sut.send({ type: 'confirm.open', at: NOW });
  return sut;
}

describe('anchor approval machine', () => {
  it('starts idle with nothing selected and the site settings from its input', () => {
    const sut = startAnchorApproval();
    expect(state(sut)).toBe('idle');
    expect(sut.snapshot().context).toEqual({
      selected: null,
      placement: null,
      problems: [],
      overrideReason: '',
      error: null,
      settings: SETTINGS,
      floorId: FLOOR_ID,
      lastApproved: null,
    });
    expect(selectCanPlace(sut.snapshot())).toBe(false);
    expect(selectCanConfirm(sut.snapshot())).toBe(false);
  });

  it('selects an anchor, then takes a placement from its planning anchor or a drag', () => {
    const sut = startAnchorApproval();
    sut.send({ type: 'anchor.select', anchor: NEAR });
    expect(state(sut)).toBe('selected');
    expect(selectCanPlace(sut.snapshot())).toBe(true);
    expect(selectCanUsePlanning(sut.snapshot())).toBe(true);
    // No confirming without a placement.
    expect(selectCanConfirm(sut.snapshot())).toBe(false);
    sut.send({ type: 'placement.set', point: planningPoint(NEAR), source: 'planning' });
    expect(state(sut)).toBe('placing');
    expect(sut.snapshot().context.placement).toEqual({ lat: 25.2, long: 55.27, source: 'planning' });
    sut.send({ type: 'placement.set', point: DRAGGED, source: 'drag' });
    expect(sut.snapshot().context.placement).toEqual({ ...DRAGGED, source: 'drag' });
  });

  it('refuses a planning placement for an anchor with no planning anchor, and a point off the earth', () => {
    const sut = startAnchorApproval();
    sut.send({ type: 'anchor.select', anchor: SILENT });
    expect(selectCanUsePlanning(sut.snapshot())).toBe(false);
    expect(
      sut.snapshot().can({ type: 'placement.set', point: { lat: 25.2, long: 55.27 }, source: 'planning' }),
    ).toBe(false);
    expect(
      sut.snapshot().can({ type: 'placement.set', point: { lat: 91, long: 55.27 }, source: 'drag' }),
    ).toBe(false);
    expect(
      sut.snapshot().can({ type: 'placement.set', point: { lat: Number.NaN, long: 1 }, source: 'drag' }),
    ).toBe(false);
  });

  it('an anchor that passes both checks is approved at its planning anchor without a reason', () => {
    const sut = confirming(NEAR);
    expect(state(sut)).toBe('confirming');
    expect(sut.snapshot().context.problems).toEqual([]);
    expect(selectCanSubmit(sut.snapshot())).toBe(true);
    expect(sut.send({ type: 'confirm.submit' })).toEqual([
      {
        type: 'requestSave',
        params: { inventory_id: 101, floor_id: FLOOR_ID, lat: 25.2, long: 55.27, planning_anchor_id: 31 },
      },
    ]);
    expect(state(sut)).toBe('saving');
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    sut.send({ type: 'save.succeeded' });
    expect(state(sut)).toBe('idle');
    expect(sut.snapshot().context).toMatchObject({
      selected: null,
      placement: null,
      lastApproved: 'ANC-0101',
    });
  });

  it('names each failed check in words and needs a reason of at most 500 characters to go ahead', () => {
    const sut = confirming(FAR);
    expect(sut.snapshot().context.problems).toEqual(FAR_PROBLEMS);
    expect(selectCanSubmit(sut.snapshot())).toBe(false);
    expect(sut.send({ type: 'confirm.submit' })).toEqual([]);
    sut.send({ type: 'override.change', reason: '   ' });
    expect(selectCanSubmit(sut.snapshot())).toBe(false);
    sut.send({ type: 'override.change', reason: 'x'.repeat(501) });
    expect(selectCanSubmit(sut.snapshot())).toBe(false);
    sut.send({ type: 'override.change', reason: ' Mounted on the column, surveyed by hand ' });
    expect(sut.send({ type: 'confirm.submit' })).toEqual([
      {
        type: 'requestSave',
        params: {
          inventory_id: 102,
          floor_id: FLOOR_ID,
          lat: 25.201,
          long: 55.271,
          planning_anchor_id: 32,
          override_reason: 'Mounted on the column, surveyed by hand',
        },
      },
    ]);
  });

  it('a dragged placement is compared with where it was dragged and sends no planning anchor', () => {
    const sut = confirming(NEAR, 'drag');
    expect(sut.snapshot().context.problems).toEqual([]);
    expect(sut.send({ type: 'confirm.submit' })).toEqual([
      { type: 'requestSave', params: { inventory_id: 101, floor_id: FLOOR_ID, ...DRAGGED } },
    ]);
  });

  it('a link quality older than the live window counts as none', () => {
    const stale = { ...NEAR, last_seen: '2025-03-01T08:00:00.000Z' };
    const problems = approvalProblems(stale, { ...planningPoint(NEAR), source: 'planning' }, SETTINGS, NOW);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^ANC-0101 has reported no link quality in the last \d+ minutes$/);
    // Without a clock the reported quality is taken as it is.
    expect(approvalProblems(stale, { ...planningPoint(NEAR), source: 'planning' }, SETTINGS)).toEqual([]);
  });

  it('an anchor reported on no floor is approved onto the screen floor; with neither it cannot be saved', () => {
    const sut = confirming(SILENT, 'drag');
    expect(sut.snapshot().context.problems).toEqual([
      'ANC-0103 has reported no position',
      expect.stringMatching(/^ANC-0103 has reported no link quality/),
    ]);
    sut.send({ type: 'override.change', reason: 'Commissioned offline' });
    expect(sut.send({ type: 'confirm.submit' })).toMatchObject([
      { type: 'requestSave', params: { floor_id: FLOOR_ID } },
    ]);

    const floorless = startAnchorApproval({ settings: SETTINGS });
    floorless.send({ type: 'anchor.select', anchor: SILENT });
    floorless.send({ type: 'placement.set', point: DRAGGED, source: 'drag' });
    floorless.send({ type: 'confirm.open', at: NOW });
    floorless.send({ type: 'override.change', reason: 'Commissioned offline' });
    expect(selectCanSubmit(floorless.snapshot())).toBe(false);
  });

  it("a refusal shows the server's message and problems; retry and back", () => {
    const sut = confirming(NEAR);
    sut.send({ type: 'confirm.submit' });
    sut.send({
      type: 'save.failed',
      message: 'The given data was invalid.',
      problems: ["Link quality 40 is below the site's 50"],
    });
    expect(state(sut)).toBe('failure');
    expect(sut.snapshot().context).toMatchObject({
      error: 'The given data was invalid.',
      problems: ["Link quality 40 is below the site's 50"],
    });
    // The server found a failed check: a retry needs a reason now.
    expect(sut.snapshot().can({ type: 'retry' })).toBe(false);
    sut.send({ type: 'override.change', reason: 'Gateway restarting' });
    expect(sut.send({ type: 'retry' })).toEqual([
      {
        type: 'requestSave',
        params: {
          inventory_id: 101,
          floor_id: FLOOR_ID,
          lat: 25.2,
          long: 55.27,
          planning_anchor_id: 31,
          override_reason: 'Gateway restarting',
        },
      },
    ]);
    sut.send({ type: 'save.failed', message: 'Network error' });
    expect(sut.snapshot().context.problems).toEqual(["Link quality 40 is below the site's 50"]);
    sut.send({ type: 'back' });
    expect(state(sut)).toBe('placing');
    expect(sut.snapshot().context.error).toBeNull();
    expect(sut.snapshot().context.placement).not.toBeNull();
  });

  it('selecting another anchor starts over with it', () => {
    const sut = confirming(FAR);
    expect(sut.snapshot().can({ type: 'anchor.select', anchor: NEAR })).toBe(false);
    sut.send({ type: 'back' });
    sut.send({ type: 'anchor.select', anchor: NEAR });
    expect(state(sut)).toBe('selected');
    expect(sut.snapshot().context).toMatchObject({ selected: NEAR, placement: null, problems: [] });
  });

  it('cancel clears everything from every state, aborting a save in flight', () => {
    for (const reach of [
      (sut: Harness) => sut.send({ type: 'anchor.select', anchor: FAR }),
      (sut: Harness) => {
        sut.send({ type: 'anchor.select', anchor: FAR });
        sut.send({ type: 'placement.set', point: DRAGGED, source: 'drag' });
      },
    ]) {
      const sut = startAnchorApproval();
      reach(sut);
      expect(sut.send({ type: 'cancel' })).toEqual([]);
      expect(state(sut)).toBe('idle');
      expect(sut.snapshot().context.selected).toBeNull();
    }
    const failed = confirming(FAR);
    failed.send({ type: 'override.change', reason: 'ok' });
    expect(failed.send({ type: 'cancel' })).toEqual([]);
    expect(failed.snapshot().context).toMatchObject({ overrideReason: '', problems: [], placement: null });

    const saving = confirming(NEAR);
    saving.send({ type: 'confirm.submit' });
    expect(saving.send({ type: 'cancel' })).toEqual([{ type: 'abortSave' }]);
    expect(state(saving)).toBe('idle');
    // The aborted save's late answer changes nothing.
    saving.send({ type: 'save.succeeded' });
    expect(saving.snapshot().context.lastApproved).toBeNull();
  });
});
