/** Sizes of the run page's panels (spec §1 "Run page"): pure clamping so the drag handlers stay trivial. */

export interface Bounds {
  min: number;
  max: number;
  initial: number;
}

/** The log drawer on the right: 280 to 700 px wide. */
export const DRAWER: Bounds = { min: 280, max: 700, initial: 380 };
/** The run log panel at the bottom: 80 to 500 px tall. */
export const LOG_PANEL: Bounds = { min: 80, max: 500, initial: 180 };
/** The step list, and the strip it folds to. */
export const STEP_LIST = { width: 260, folded: 40 } as const;

/** `value` forced into [min, max]; NaN gives the initial size. */
export function clampSize(value: number, b: Bounds): number {
  if (!Number.isFinite(value)) return b.initial;
  return Math.min(b.max, Math.max(b.min, Math.round(value)));
}

/**
 * The size after a drag. The drawer's handle is on its left edge and the log panel's on its top edge, so moving
 * the pointer left / up makes them bigger: `grow` is -1 for those, +1 for a handle on the right / bottom edge.
 */
export function dragSize(start: number, pointerStart: number, pointerNow: number, b: Bounds, grow: 1 | -1 = -1): number {
  return clampSize(start + (pointerNow - pointerStart) * grow, b);
}

/** The size after a keyboard nudge on a focused handle (arrow keys, 16 px a press). */
export function keySize(current: number, key: string, b: Bounds, grow: 1 | -1 = -1): number {
  const step = 16;
  const delta: Record<string, number> = { ArrowLeft: -step, ArrowUp: -step, ArrowRight: step, ArrowDown: step };
  if (key === 'Home') return b.min;
  if (key === 'End') return b.max;
  const d = delta[key];
  return d === undefined ? current : clampSize(current + d * grow, b);
}
