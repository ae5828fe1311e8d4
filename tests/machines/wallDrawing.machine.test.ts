import { describe, expect, it } from 'vitest';
import type { LongLat } from '../../src/domain/floor';
import { LIMITS } from '../../src/domain/limits';
import { MAX_WALL_POINTS } from '../../src/domain/wallGeometry';
import { selectedWallIdOf, wallDrawingStateOf } from '../../src/machines/wallDrawing.machine';
import { A, B, C, E, EMPTY_CONTEXT, FLOOR, OUT, startWallDrawing, WALL } from './helpers/wallDrawingHarness';

function drawTwo() {
  const sut = startWallDrawing();
  sut.send({ type: 'draw.start', floor: FLOOR, material: 'concrete' });
  sut.send({ type: 'pointer.click', point: A });
  sut.send({ type: 'pointer.click', point: B });
  return sut;
}

function selectWall() {
  const sut = startWallDrawing();
  sut.send({ type: 'wall.select', wall: WALL, floor: FLOOR });
  return sut;
}

const state = (sut: ReturnType<typeof startWallDrawing>) => wallDrawingStateOf(sut.snapshot());

describe('wall drawing machine: a new wall', () => {
  it('starts idle with nothing drawn, where only draw.start and wall.select do anything', () => {
    const sut = startWallDrawing();
    expect(state(sut)).toBe('idle');
    expect(sut.snapshot().context).toEqual(EMPTY_CONTEXT);
    expect(sut.snapshot().can({ type: 'draw.start', floor: FLOOR })).toBe(true);
    expect(sut.snapshot().can({ type: 'wall.select', wall: WALL, floor: FLOOR })).toBe(true);
    expect(sut.snapshot().can({ type: 'pointer.click', point: A })).toBe(false);
    expect(sut.snapshot().can({ type: 'move.start', point: A })).toBe(false);
    expect(sut.snapshot().can({ type: 'delete.request' })).toBe(false);
    expect(sut.send({ type: 'draw.cancel' })).toEqual([]);
    expect(sut.send({ type: 'draw.interrupt' })).toEqual([]);
    expect(state(sut)).toBe('idle');
  });

  it('takes the material chosen before drawing, drywall when none is', () => {
    expect(drawTwo().snapshot().context.material).toBe('concrete');
    const plain = startWallDrawing();
    plain.send({ type: 'draw.start', floor: FLOOR });
    expect(plain.snapshot().context.material).toBe('drywall');
  });

  it('adds a vertex per click, refuses one outside the floor and the second click of a double-click', () => {
    const sut = drawTwo();
    sut.send({ type: 'pointer.click', point: B });
    sut.send({ type: 'pointer.click', point: OUT });
    expect(sut.snapshot().context.vertices).toEqual([A, B]);
    // Back to an earlier vertex is a real segment: walls may turn back on themselves.
    sut.send({ type: 'pointer.click', point: A });
    expect(sut.snapshot().context.vertices).toEqual([A, B, A]);
  });

  it('finishes with two vertices, not with one', () => {
    const sut = startWallDrawing();
    sut.send({ type: 'draw.start', floor: FLOOR });
    sut.send({ type: 'pointer.click', point: A });
    expect(sut.snapshot().can({ type: 'draw.finish' })).toBe(false);
    sut.send({ type: 'pointer.dblclick' });
    expect(state(sut)).toBe('drawing');
    sut.send({ type: 'pointer.click', point: B });
    sut.send({ type: 'pointer.dblclick' });
    expect(state(sut)).toBe('naming');
  });

  it(`stops adding vertices at ${MAX_WALL_POINTS}`, () => {
    const sut = startWallDrawing();
    sut.send({ type: 'draw.start', floor: FLOOR });
    for (let i = 0; i < MAX_WALL_POINTS + 5; i++) {
      sut.send({ type: 'pointer.click', point: [55.2695 + i * 0.00001, i % 2 === 0 ? 25.2 : 25.201] });
    }
    expect(sut.snapshot().context.vertices).toHaveLength(MAX_WALL_POINTS);
    expect(sut.snapshot().can({ type: 'draw.finish' })).toBe(true);
  });

  it('moves a dragged vertex, but never onto its neighbour or out of the floor', () => {
    const sut = drawTwo();
    sut.send({ type: 'pointer.click', point: C });
    sut.send({ type: 'vertex.drag', index: 1, point: E });
    expect(sut.snapshot().context.vertices).toEqual([A, E, C]);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 1, point: C })).toBe(false);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 0, point: OUT })).toBe(false);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 3, point: B })).toBe(false);
    expect(sut.snapshot().can({ type: 'vertex.drag', index: 0.5, point: B })).toBe(false);
  });

  it('undoes the last vertex until none is left', () => {
    const sut = drawTwo();
    sut.send({ type: 'draw.undo' });
    expect(sut.snapshot().context.vertices).toEqual([A]);
    sut.send({ type: 'draw.undo' });
    expect(sut.snapshot().can({ type: 'draw.undo' })).toBe(false);
  });

  it('saves the trimmed name, the material and the points, then returns to idle', () => {
    const sut = drawTwo();
    sut.send({ type: 'draw.finish' });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    sut.send({ type: 'name.change', name: '  Lift shaft  ' });
    sut.send({ type: 'material.change', material: 'metal' });
    expect(sut.send({ type: 'name.submit' })).toEqual([
      { type: 'requestSave', params: { name: 'Lift shaft', material: 'metal', points: [A, B] } },
    ]);
    expect(state(sut)).toBe('saving');
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    sut.send({ type: 'save.succeeded' });
    expect(state(sut)).toBe('idle');
    expect(sut.snapshot().context).toEqual(EMPTY_CONTEXT);
  });

  it('refuses a blank name and one longer than the limit', () => {
    const sut = drawTwo();
    sut.send({ type: 'draw.finish' });
    sut.send({ type: 'name.change', name: '   ' });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    sut.send({ type: 'name.change', name: 'x'.repeat(LIMITS.nameMax + 1) });
    expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
  });

  it('returns to naming with the duplicate-name message and the drawing kept', () => {
    const sut = drawTwo();
    sut.send({ type: 'draw.finish' });
    sut.send({ type: 'name.change', name: 'North wall' });
    sut.send({ type: 'name.submit' });
    sut.send({ type: 'save.failed', message: 'Wall name already exists!' });
    expect(state(sut)).toBe('naming');
    expect(sut.snapshot().context).toMatchObject({
      name: 'North wall',
      error: 'Wall name already exists!',
      vertices: [A, B],
    });
    sut.send({ type: 'name.change', name: 'North wall 2' });
    expect(sut.snapshot().context.error).toBeNull();
  });

  it('goes back from naming to drawing with the vertices kept', () => {
    const sut = drawTwo();
    sut.send({ type: 'draw.finish' });
    sut.send({ type: 'draw.resume' });
    sut.send({ type: 'pointer.click', point: C });
    expect(sut.snapshot().context.vertices).toEqual([A, B, C]);
  });

  it.each(['draw.cancel', 'draw.interrupt'] as const)('%s discards a new wall from every state', (type) => {
    const drawing = drawTwo();
    expect(drawing.send({ type })).toEqual([]);
    expect(drawing.snapshot().context).toEqual(EMPTY_CONTEXT);

    const naming = drawTwo();
    naming.send({ type: 'draw.finish' });
    expect(naming.send({ type })).toEqual([]);
    expect(state(naming)).toBe('idle');

    const saving = drawTwo();
    saving.send({ type: 'draw.finish' });
    saving.send({ type: 'name.change', name: 'Lobby' });
    saving.send({ type: 'name.submit' });
    expect(saving.send({ type })).toEqual([{ type: 'abortRequest' }]);
    expect(saving.snapshot().context).toEqual(EMPTY_CONTEXT);
    // A late answer of the aborted save changes nothing.
    saving.send({ type: 'save.failed', message: 'late' });
    expect(saving.snapshot().context).toEqual(EMPTY_CONTEXT);
  });
});

describe('wall drawing machine: an existing wall', () => {
  it('selects a wall with its fields, and another one instead', () => {
    const sut = selectWall();
    expect(state(sut)).toBe('selected');
    expect(selectedWallIdOf(sut.snapshot())).toBe(7);
    expect(sut.snapshot().context).toMatchObject({ name: 'North wall', material: 'brick', vertices: [A, B] });
    sut.send({ type: 'wall.select', wall: { ...WALL, id: 8, name: 'South wall' }, floor: FLOOR });
    expect(selectedWallIdOf(sut.snapshot())).toBe(8);
    sut.send({ type: 'wall.deselect' });
    expect(state(sut)).toBe('idle');
    expect(selectedWallIdOf(sut.snapshot())).toBeNull();
  });

  it('moves the whole wall with the pointer and saves only its points', () => {
    const sut = selectWall();
    sut.send({ type: 'move.start', point: A });
    sut.send({ type: 'pointer.move', point: E });
    const moved = sut.snapshot().context.vertices;
    expect(moved[0]).toEqual(E);
    expect(moved[1][0]).toBeCloseTo(B[0] + (E[0] - A[0]), 12);
    expect(moved[1][1]).toBeCloseTo(B[1] + (E[1] - A[1]), 12);
    expect(sut.send({ type: 'move.end' })).toEqual([
      { type: 'requestUpdate', params: { id: 7, points: moved } },
    ]);
    expect(state(sut)).toBe('updating');
    sut.send({ type: 'save.succeeded' });
    expect(state(sut)).toBe('selected');
    expect(sut.snapshot().context.saved?.points).toEqual(moved);
  });

  it('refuses a move that would take any vertex off the floor', () => {
    const sut = selectWall();
    sut.send({ type: 'move.start', point: A });
    // Moving A to the floor's east edge takes B (1 mm east of A) beyond it.
    const edge: LongLat = [55.272, 25.2];
    expect(sut.snapshot().can({ type: 'pointer.move', point: edge })).toBe(false);
    sut.send({ type: 'pointer.move', point: edge });
    expect(sut.snapshot().context.vertices).toEqual([A, B]);
  });

  it('moves one vertex, and a press that moved nothing saves nothing', () => {
    const sut = selectWall();
    sut.send({ type: 'vertex.grab', index: 1 });
    expect(sut.send({ type: 'move.end' })).toEqual([]);
    expect(state(sut)).toBe('selected');
    expect(sut.snapshot().can({ type: 'vertex.grab', index: 2 })).toBe(false);
    sut.send({ type: 'vertex.grab', index: 1 });
    expect(sut.snapshot().can({ type: 'pointer.move', point: A })).toBe(false);
    sut.send({ type: 'pointer.move', point: C });
    expect(sut.send({ type: 'move.end' })).toEqual([
      { type: 'requestUpdate', params: { id: 7, points: [A, C] } },
    ]);
  });

  it('Escape during a drag puts the wall back and keeps it selected', () => {
    const sut = selectWall();
    sut.send({ type: 'move.start', point: A });
    sut.send({ type: 'pointer.move', point: E });
    expect(sut.send({ type: 'draw.cancel' })).toEqual([]);
    expect(state(sut)).toBe('selected');
    expect(sut.snapshot().context.vertices).toEqual([A, B]);
  });

  it('a refused move shows the message and the wall where it is stored', () => {
    const sut = selectWall();
    sut.send({ type: 'vertex.grab', index: 0 });
    sut.send({ type: 'pointer.move', point: E });
    sut.send({ type: 'move.end' });
    sut.send({ type: 'save.failed', message: 'Every point must be inside the floor' });
    expect(state(sut)).toBe('selected');
    expect(sut.snapshot().context).toMatchObject({
      vertices: [A, B],
      error: 'Every point must be inside the floor',
    });
  });

  it('renames and changes the material, sending only what changed', () => {
    const sut = selectWall();
    expect(sut.snapshot().can({ type: 'edit.submit' })).toBe(false);
    sut.send({ type: 'material.change', material: 'glass' });
    expect(sut.send({ type: 'edit.submit' })).toEqual([
      { type: 'requestUpdate', params: { id: 7, material: 'glass' } },
    ]);
    sut.send({ type: 'save.succeeded' });
    expect(sut.snapshot().context.saved).toMatchObject({ name: 'North wall', material: 'glass' });
    sut.send({ type: 'name.change', name: '  ' });
    expect(sut.snapshot().can({ type: 'edit.submit' })).toBe(false);
    sut.send({ type: 'name.change', name: ' Core wall ' });
    expect(sut.send({ type: 'edit.submit' })).toEqual([
      { type: 'requestUpdate', params: { id: 7, name: 'Core wall' } },
    ]);
    sut.send({ type: 'save.failed', message: 'Wall name already exists!' });
    expect(sut.snapshot().context).toMatchObject({ name: ' Core wall ', error: 'Wall name already exists!' });
    expect(sut.snapshot().context.saved?.name).toBe('North wall');
  });

  it('deletes after a confirmation, which can be dismissed', () => {
    const sut = selectWall();
    sut.send({ type: 'delete.request' });
    expect(state(sut)).toBe('confirming');
    sut.send({ type: 'delete.dismiss' });
    expect(state(sut)).toBe('selected');
    sut.send({ type: 'delete.request' });
    sut.send({ type: 'draw.cancel' });
    expect(state(sut)).toBe('selected');
    sut.send({ type: 'delete.request' });
    expect(sut.send({ type: 'delete.confirm' })).toEqual([{ type: 'requestDelete', params: { id: 7 } }]);
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    sut.send({ type: 'delete.failed', message: 'Something went wrong' });
    expect(state(sut)).toBe('selected');
    expect(sut.snapshot().context.error).toBe('Something went wrong');
    sut.send({ type: 'delete.request' });
    sut.send({ type: 'delete.confirm' });
    sut.send({ type: 'delete.succeeded' });
    expect(state(sut)).toBe('idle');
    expect(sut.snapshot().context).toEqual(EMPTY_CONTEXT);
  });

  it('draw.interrupt drops the selection from every editing state, aborting a request', () => {
    const cases: [string, (sut: ReturnType<typeof startWallDrawing>) => void, boolean][] = [
      ['selected', () => {}, false],
      ['moving', (sut) => sut.send({ type: 'move.start', point: A }), false],
      ['confirming', (sut) => sut.send({ type: 'delete.request' }), false],
      [
        'updating',
        (sut) => {
          sut.send({ type: 'material.change', material: 'metal' });
          sut.send({ type: 'edit.submit' });
        },
        true,
      ],
      [
        'deleting',
        (sut) => {
          sut.send({ type: 'delete.request' });
          sut.send({ type: 'delete.confirm' });
        },
        true,
      ],
    ];
    for (const [name, reach, aborts] of cases) {
      const sut = selectWall();
      reach(sut);
      expect(state(sut)).toBe(name);
      expect(sut.send({ type: 'draw.interrupt' })).toEqual(aborts ? [{ type: 'abortRequest' }] : []);
      expect(sut.snapshot().context).toEqual(EMPTY_CONTEXT);
    }
  });

  it('no drawing click reaches a selected wall, and no selection happens while drawing', () => {
    const sut = selectWall();
    expect(sut.snapshot().can({ type: 'pointer.click', point: C })).toBe(false);
    const drawing = drawTwo();
    expect(drawing.snapshot().can({ type: 'wall.select', wall: WALL, floor: FLOOR })).toBe(false);
  });
});
