/** Run and workflow presentation rules: the active-run lock, relative times, durations, approval state. */

export const ACTIVE_STATUSES = ['queued', 'running', 'waiting_approval'] as const;
export const LOCK_TOOLTIP = 'Cannot edit while a run is active';

/** Active means queued, running or waiting_approval (spec §3). */
export function isActive(status: string | null | undefined): boolean {
  return !!status && (ACTIVE_STATUSES as readonly string[]).includes(status);
}

export interface ActiveRunRef {
  id: string;
  status: string;
}

export interface LockState {
  locked: boolean;
  /** Text of the Run button: Run, Running or Awaiting approval. */
  runLabel: string;
  /** Tooltip on Edit (and Publish) while locked. */
  editTitle: string | undefined;
}

/** The active-run lock of a workflow row (spec §1 "Active-run lock"). */
export function lockState(activeRun: ActiveRunRef | null | undefined): LockState {
  if (!activeRun || !isActive(activeRun.status)) return { locked: false, runLabel: 'Run', editTitle: undefined };
  return {
    locked: true,
    runLabel: activeRun.status === 'waiting_approval' ? 'Awaiting approval' : 'Running',
    editTitle: LOCK_TOOLTIP,
  };
}

/** "2026-11-21 16:40" in local time, or an em dash. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago" relative to `now`. */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '—';
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

/** "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Duration between two ISO timestamps, the second defaulting to now. */
export function elapsed(from: string | null | undefined, to: string | null | undefined, now: number = Date.now()): string {
  if (!from) return '—';
  const a = new Date(from).getTime();
  const b = to ? new Date(to).getTime() : now;
  return formatDuration(b - a);
}

export type ApprovalActionName = 'approve' | 'reject' | 'request_revision';
const ALL_ACTIONS: ApprovalActionName[] = ['approve', 'reject', 'request_revision'];

/** What the run page offers for one approval request. */
export interface ApprovalView {
  /** Pending and not past expires_at: actions may be offered. */
  open: boolean;
  expired: boolean;
  actions: ApprovalActionName[];
  noteRequired: boolean;
  message: string;
}

export interface ApprovalLike {
  status: string;
  expires_at?: string | null;
  allowed_actions?: unknown;
  note_required?: unknown;
  resolution_comment?: string | null;
  resolved_by_name?: string | null;
}

/** Normalises allowed actions (API array or JSON text); an empty or invalid list means the default three. */
export function allowedActions(raw: unknown): ApprovalActionName[] {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      v = undefined;
    }
  }
  if (!Array.isArray(v)) return [...ALL_ACTIONS];
  const out = ALL_ACTIONS.filter((a) => (v as unknown[]).includes(a));
  return out.length ? out : [...ALL_ACTIONS];
}

/** The approval panel's state: expired approvals (by status, or pending past expires_at) say so and offer nothing. */
export function approvalView(a: ApprovalLike, now: number = Date.now()): ApprovalView {
  const noteRequired = a.note_required === true || a.note_required === 1;
  const pastExpiry = !!a.expires_at && new Date(a.expires_at).getTime() <= now;
  if (a.status === 'expired' || (a.status === 'pending' && pastExpiry)) {
    return { open: false, expired: true, actions: [], noteRequired, message: `This approval expired${a.expires_at ? ` at ${formatTime(a.expires_at)}` : ''} and can no longer be submitted.` };
  }
  if (a.status !== 'pending') {
    const who = a.resolved_by_name ? ` by ${a.resolved_by_name}` : '';
    const note = a.resolution_comment ? `: “${a.resolution_comment}”` : '';
    return { open: false, expired: false, actions: [], noteRequired, message: `${a.status.replace(/_/g, ' ')}${who}${note}` };
  }
  return {
    open: true,
    expired: false,
    actions: allowedActions(a.allowed_actions),
    noteRequired,
    message: a.expires_at ? `Expires ${formatTime(a.expires_at)}` : 'Awaiting a decision',
  };
}

/** Whether an approval action may be submitted with this note. */
export function canSubmitApproval(view: ApprovalView, note: string): boolean {
  return view.open && (!view.noteRequired || note.trim().length > 0);
}

/** Button text and route segment of an approval action. */
export const ACTION_INFO: Record<ApprovalActionName, { label: string; route: string }> = {
  approve: { label: 'Approve', route: 'approve' },
  reject: { label: 'Reject', route: 'reject' },
  request_revision: { label: 'Request revision', route: 'request-revision' },
};

/** Masks a sensitive memory value unless the server already did. */
export function maskValue(value: string, sensitivity: string | null | undefined): string {
  return sensitivity === 'sensitive' ? '••••••' : value;
}
