/**
 * The one reporter interface of `wfctl run` / `wfctl resume` (conventions item 10). The local run driver
 * (cli/local-run.ts) polls the database and hands each reporter the same snapshots; the reporter only draws.
 * Three implementations: a listr2 tree on a terminal (tree.ts), plain timestamped lines elsewhere (plain.ts),
 * one JSON object under --json (json.ts).
 */
import type { Graph, Level } from '../../core/graph.js';
import type { Approval } from '../../sql/approvals.js';
import type { RunLog } from '../../sql/logs.js';
import type { RunRow } from '../../sql/runs.js';
import type { StepRow } from '../../sql/steps.js';

/** What the driver read from the database on one poll. */
export interface RunSnapshot {
  run: RunRow;
  graph: Graph;
  levels: Level[];
  /** Every attempt of every node, in creation order. */
  steps: StepRow[];
  /** Log lines written since the previous snapshot. */
  newLogs: RunLog[];
  /** Latest agent message line per node id (all nodes that ever spoke). */
  lastMessage: ReadonlyMap<string, string>;
  /** The run's pending approval, if it waits at a gate. */
  pendingApproval?: Approval;
}

/** How the run ended, as the command reports it and maps to an exit code. */
export type RunEnding = 'completed' | 'failed' | 'cancelled' | 'timed_out';

export interface RunResult {
  ending: RunEnding;
  /** The final snapshot (terminal run row, all steps). */
  snapshot: RunSnapshot;
}

export interface Reporter {
  /** Before the first snapshot. */
  start(run: RunRow, opts: { resumed: boolean }): void;
  update(s: RunSnapshot): void;
  /** A one-off line for the person watching (cancelling, how to resolve a gate, resolved elsewhere). */
  notice(line: string): Promise<void>;
  /** Stops drawing so an interactive prompt can use the terminal; resume() draws again. */
  pause(): Promise<void>;
  resume(): void;
  /** The end: final tree / summary lines / the JSON object. */
  finish(result: RunResult): Promise<void>;
}

/** A node's display name. */
export function labelOf(graph: Graph, nodeId: string): string {
  return graph.nodes.find((n) => n.id === nodeId)?.data.label ?? nodeId;
}

/** The latest attempt of each node. */
export function latestByNode(steps: StepRow[]): Map<string, StepRow> {
  const m = new Map<string, StepRow>();
  for (const s of steps) {
    const cur = m.get(s.node_id);
    if (!cur || s.attempt >= cur.attempt) m.set(s.node_id, s);
  }
  return m;
}

/**
 * What a completed run produced, as the terminal shows it at the end: the output of every node nothing follows
 * (the report writer, the last aggregator, …) that completed, in graph order. Nodes on an untaken branch were
 * skipped and have none.
 */
export function runResults(s: Pick<RunSnapshot, 'graph' | 'steps'>): Array<{ nodeId: string; label: string; output: string }> {
  const hasNext = new Set(s.graph.edges.map((e) => e.source));
  const latest = latestByNode(s.steps);
  const out: Array<{ nodeId: string; label: string; output: string }> = [];
  for (const n of s.graph.nodes) {
    const step = latest.get(n.id);
    const output = step?.output?.trim();
    if (hasNext.has(n.id) || step?.status !== 'completed' || !output) continue;
    out.push({ nodeId: n.id, label: labelOf(s.graph, n.id), output });
  }
  return out;
}

/** "850ms", "12.3s", "4m05s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return m < 60 ? `${m}m${String(s).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Duration of a step: until completed_at, or until now while it runs. */
export function stepDuration(s: Pick<StepRow, 'started_at' | 'created_at' | 'completed_at'>, now = Date.now()): string {
  const from = Date.parse(s.started_at ?? s.created_at);
  const to = s.completed_at ? Date.parse(s.completed_at) : now;
  return formatDuration(to - from);
}

/** Where a write run's result went, as one line; undefined when nothing was delivered. */
export function deliveryLine(run: RunRow): string | undefined {
  if (run.pull_request_url) return `pull request: ${run.pull_request_url}`;
  if (run.bundle_path) return `bundle: ${run.bundle_path}${run.branch ? ` (branch ${run.branch})` : ''}`;
  if (run.branch) return `branch: ${run.branch}`;
  return undefined;
}

/** How to resolve a pending approval without this terminal (printed when no prompt is possible). */
export function approvalHowTo(a: Approval): string {
  const actions = a.allowed_actions.map((x) => x.replace('_', '-')).join(' | ');
  return `approval required at '${a.title}' (approval ${a.id}, expires ${a.expires_at}${a.note_required ? ', note required' : ''}): ` +
    `resolve it in the web UI on run ${a.run_id}, or POST /api/workflow-runs/${a.run_id}/{${actions}}/${a.id} with {"note": "..."}`;
}
