import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/limits';
import { zoneDrawingStateOf } from '../../src/machines/zoneDrawing.machine';
import { A, B, C, D, E, EMPTY_CONTEXT, FLOOR, OUT, startZoneDrawing } from './helpers/zoneDrawingHarness';

function drawTriangle() {
  const sut = startZoneDrawing();
  sut.send({ type: 'draw.start', floor: FLOOR });
  for (const point of [A, B, C]) sut.send({ type: 'pointer.click', point });
  return sut;
}

describe('zone drawing machine', () => {
  it('starts idle with nothing drawn, and only draw.start does anything there', () => {
    const sut = startZoneDrawing();
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('idle');
    expect(sut.snapshot().can({ type: 'draw.start', floor: FLOOR })).toBe(true);
    expect(sut.snapshot().can({ type: 'pointer.click', point: A })).toBe(false);
    expect(sut.snapshot().can({ type: 'pointer.dblclick' })).toBe(false);
    expect(sut.send({ type: 'draw.cancel' })).toEqual([]);
    expect(sut.send({ type: 'draw.interrupt' })).toEqual([]);
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('idle');
  });

  it('adds a vertex per click and ignores the second click of a double-click', () => {
    const sut = startZoneDrawing();
    sut.send({ type: 'draw.start', floor: FLOOR });
    sut.send({ type: 'pointer.click', point: A });
    sut.send({ type: 'pointer.click', point: B });
    sut.send({ type: 'pointer.click', point: B });
    expect(sut.snapshot().context.vertices).toEqual([A, B]);
  });

  it('closes only with at least three vertices', () => {
    const sut = startZoneDrawing();
    sut.send({ type: 'draw.start', floor: FLOOR });
    sut.send({ type: 'pointer.click', point: A });
    sut.send({ type: 'pointer.click', point: B });
    expect(sut.snapshot().can({ type: 'pointer.dblclick' })).toBe(false);
    sut.send({ type: 'pointer.dblclick' });
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('drawing');
    sut.send({ type: 'pointer.click', point: C });
    expect(sut.snapshot().can({ type: 'draw.close' })).toBe(true);
    sut.send({ type: 'pointer.dblclick' });
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('naming');
  });

  it('refuses a vertex outside the floor, and a crossing ring cannot close', () => {
    const sut = startZoneDrawing();
    sut.send({ type: 'draw.start', floor: FLOOR });
    sut.send({ type: 'pointer.click', point: OUT });
    expect(sut.snapshot().context.vertices).toEqual([]);
    for (const point of [A, C, B, D]) sut.send({ type: 'pointer.click', point });
    expect(sut.snapshot().context.vertices).toEqual([A, C, B, D]);
    expect(sut.snapshot().can({ type: 'pointer.dblclick' })).toBe(false);
    sut.send({ type: 'draw.undo' });
    expect(sut.snapshot().can({ type: 'pointer.dblclick' })).toBe(true);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 0, point: OUT })).toBe(false);
  });

  it('refuses three points on one line', () => {
    const sut = startZoneDrawing();
    sut.send({ type: 'draw.start', floor: FLOOR });
    for (const point of [A, [55.2705, 25.2], B] as const)
      sut.send({ type: 'pointer.click', point: [...point] });
    expect(sut.snapshot().context.vertices).toHaveLength(3);
    expect(sut.snapshot().can({ type: 'draw.close' })).toBe(false);
  });

  it('moves a dragged vertex and refuses an index that is not a vertex', () => {
    const sut = drawTriangle();
    sut.send({ type: 'vertex.drag', index: 1, point: E });
    expect(sut.snapshot().context.vertices).toEqual([A, E, C]);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 3, point: D })).toBe(false);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: -1, point: D })).toBe(false);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 0.5, point: D })).toBe(false);
  });

  it('undoes the last vertex until none is left', () => {
    const sut = drawTriangle();
    sut.send({ type: 'draw.undo' });
    expect(sut.snapshot().context.vertices).toEqual([A, B]);
    sut.send({ type: 'draw.undo' });
    sut.send({ type: 'draw.undo' });
    expect(sut.snapshot().context.vertices).toEqual([]);
    expect(sut.snapshot().can({ type: 'draw.undo' })).toBe(false);
  });

  it('saves a named zone with its trimmed name, kind and vertices, then returns to idle', () => {
    const sut = drawTriangle();
    sut.send({ type: 'pointer.dblclick' });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    sut.send({ type: 'name.change', name: '  Stair core  ' });
    sut.send({ type: 'kind.change', kind: 'restricted' });
    const effects = sut.send({ type: 'name.submit' });
    expect(effects).toEqual([
      { type: 'requestSave', params: { name: 'Stair core', kind: 'restricted', coordinates: [A, B, C] } },
    ]);
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('saving');
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    sut.send({ type: 'save.succeeded' });
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('idle');
    expect(sut.snapshot().context).toEqual(EMPTY_CONTEXT);
  });

  it('refuses a blank name and one longer than the limit', () => {
    const sut = drawTriangle();
    sut.send({ type: 'draw.close' });
    sut.send({ type: 'name.change', name: '   ' });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    sut.send({ type: 'name.change', name: 'x'.repeat(LIMITS.nameMax + 1) });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    sut.send({ type: 'name.change', name: 'x'.repeat(LIMITS.nameMax) });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(true);
  });

  it('returns to naming with the server message when the save fails, and clears it on edit', () => {
    const sut = drawTriangle();
    sut.send({ type: 'draw.close' });
    sut.send({ type: 'name.change', name: 'Lobby' });
    sut.send({ type: 'name.submit' });
    sut.send({ type: 'save.failed', message: 'Zone name already exists!' });
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('naming');
    expect(sut.snapshot().context).toMatchObject({ name: 'Lobby', error: 'Zone name already exists!' });
    expect(sut.snapshot().context.vertices).toEqual([A, B, C]);
    sut.send({ type: 'name.change', name: 'Lobby 2' });
    expect(sut.snapshot().context.error).toBeNull();
  });

  it('goes back from naming to drawing with the vertices kept', () => {
    const sut = drawTriangle();
    sut.send({ type: 'draw.close' });
    sut.send({ type: 'name.change', name: 'Lobby' });
    sut.send({ type: 'draw.resume' });
    expect(zoneDrawingStateOf(sut.snapshot())).toBe('drawing');
    sut.send({ type: 'pointer.click', point: D });
    expect(sut.snapshot().context.vertices).toEqual([A, B, C, D]);
    expect(sut.snapshot().context.name).toBe('Lobby');
  });

  it.each(['draw.cancel', 'draw.interrupt'] as const)('%s discards the drawing from every state', (type) => {
    const drawing = drawTriangle();
    expect(drawing.send({ type })).toEqual([]);
    expect(zoneDrawingStateOf(drawing.snapshot())).toBe('idle');
    expect(drawing.snapshot().context.vertices).toEqual([]);

    const naming = drawTriangle();
    naming.send({ type: 'draw.close' });
    naming.send({ type: 'name.change', name: 'Lobby' });
    expect(naming.send({ type })).toEqual([]);
    expect(naming.snapshot().context).toEqual(EMPTY_CONTEXT);

    const saving = drawTriangle();
    saving.send({ type: 'draw.close' });
    saving.send({ type: 'name.change', name: 'Lobby' });
    saving.send({ type: 'name.submit' });
    expect(saving.send({ type })).toEqual([{ type: 'abortSave' }]);
    expect(zoneDrawingStateOf(saving.snapshot())).toBe('idle');
    // The aborted save's late answer changes nothing.
    saving.send({ type: 'save.failed', message: 'late' });
    expect(saving.snapshot().context.error).toBeNull();
  });

  it('starts every drawing from nothing', () => {
    const sut = drawTriangle();
    sut.send({ type: 'draw.cancel' });
    sut.send({ type: 'draw.start', floor: FLOOR });
    expect(sut.snapshot().context.vertices).toEqual([]);
  });
});
