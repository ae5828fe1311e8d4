// Shared by the worker table harness page and the Node side of its benchmark.

/** The element that scrolls the worker table's body (Blueprint's main quadrant). */
export const WORKER_TABLE_SCROLLER =
  '.sw-workers-table .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container';

export interface WorkerTableMountOptions {
  /** `table`: the console's WorkersTable; `empty`: a bare scrolling box as tall as the table's body. */
  kind: 'table' | 'empty';
  rows: number;
  locale?: 'en' | 'ar';
}

export interface ScrollPlan {
  /** Frames of steady scrolling, down then back up at the ends. */
  steadyFrames: number;
  /** Pixels per frame while scrolling steadily (one 32 px row per frame is about 60 rows a second). */
  pxPerFrame: number;
  /** Where to jump to, as fractions of the furthest scroll position. */
  jumps: number[];
  /** Frames to stay after each jump, waiting for the cells to be drawn. */
  framesPerJump: number;
}

export interface ScrollPhase {
  /** requestAnimationFrame deltas (ms). */
  deltas: number[];
  /** Frames painted with some cells in view not drawn yet. */
  incompleteFrames: number;
  /** Mean share of the cells in view that were not drawn yet, over the frames. */
  meanBlankShare: number;
}

export interface ScrollResult {
  steady: ScrollPhase;
  jumps: ScrollPhase & {
    /** Per jump: ms from the frame of the jump to the first frame with every cell in view drawn (null: not within the frames given). */
    settleMs: (number | null)[];
    settleFrames: (number | null)[];
  };
  longTasks: { count: number; totalMs: number; maxMs: number; supported: boolean };
  /** Distinct body rows in the DOM at the end, and the most seen on any frame. */
  domRows: number;
  maxDomRows: number;
  /** Body cells in the DOM at the end, and every element inside the table. */
  domCells: number;
  domElements: number;
  /** Cells in view (rows × columns) when the view is full. */
  cellsInView: number;
}
