/**
 * Colours. Lanes: nodes at one topological depth share palette[depth % 8] (spec §1 "Parallel lane colour"; the
 * palette repeats #7c3aed at 0 and 6 exactly as the spec lists it). Statuses: one colour and label per run,
 * step and approval status, used by badges and graph nodes alike.
 */

export const LANE_PALETTE = ['#7c3aed', '#2563eb', '#0891b2', '#059669', '#d97706', '#dc2626', '#7c3aed', '#0f766e'] as const;

/** The lane colour of a depth (negative or fractional depths are treated as 0 / floored). */
export function laneColour(depth: number): string {
  const d = Number.isFinite(depth) && depth > 0 ? Math.floor(depth) : 0;
  return LANE_PALETTE[d % LANE_PALETTE.length]!;
}

export interface StatusStyle {
  label: string;
  /** Text / border colour. */
  colour: string;
  /** Badge background. */
  background: string;
}

const STATUS: Record<string, StatusStyle> = {
  queued: { label: 'Queued', colour: '#475569', background: '#e2e8f0' },
  pending: { label: 'Pending', colour: '#475569', background: '#e2e8f0' },
  running: { label: 'Running', colour: '#1d4ed8', background: '#dbeafe' },
  waiting_approval: { label: 'Awaiting approval', colour: '#b45309', background: '#fef3c7' },
  completed: { label: 'Completed', colour: '#047857', background: '#d1fae5' },
  approved: { label: 'Approved', colour: '#047857', background: '#d1fae5' },
  failed: { label: 'Failed', colour: '#b91c1c', background: '#fee2e2' },
  rejected: { label: 'Rejected', colour: '#b91c1c', background: '#fee2e2' },
  revision_requested: { label: 'Revision requested', colour: '#9a3412', background: '#ffedd5' },
  cancelled: { label: 'Cancelled', colour: '#52525b', background: '#f4f4f5' },
  expired: { label: 'Expired', colour: '#52525b', background: '#f4f4f5' },
  skipped: { label: 'Skipped', colour: '#71717a', background: '#f4f4f5' },
  timed_out: { label: 'Timed out', colour: '#b91c1c', background: '#fee2e2' },
};

/** Label and colours of a status; unknown statuses get a neutral style and their raw name. */
export function statusStyle(status: string | null | undefined): StatusStyle {
  if (!status) return { label: 'Not run', colour: '#71717a', background: '#f4f4f5' };
  return STATUS[status] ?? { label: status.replace(/_/g, ' '), colour: '#52525b', background: '#f4f4f5' };
}
