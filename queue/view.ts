/** The run as the API and `wfctl run --json` show it: the row plus steps, levels and approvals. */
import type { DB } from '../sql/db.js';
import { listApprovals, toApproval, type Approval } from '../sql/approvals.js';
import { runGraph, runLevels, type RunRow } from '../sql/runs.js';
import { listSteps, type StepRow } from '../sql/steps.js';
import type { Graph, Level } from '../core/graph.js';

export interface RunSummaryView {
  id: string;
  run_id: string;
  status: RunRow['status'];
  workflow_id: string | null;
  workflow_name: string;
  workspace_path: string;
  write: boolean;
  executor: RunRow['executor'];
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  updated_at: string;
  completed_at: string | null;
  error: string | null;
  current_level: number;
  pull_request_url: string | null;
  bundle_path: string | null;
  branch: string | null;
}

export interface RunView extends RunSummaryView {
  graph: Graph;
  levels: Level[];
  steps: StepRow[];
  approvals: Approval[];
  workdir: string | null;
}

export function runSummary(r: RunRow): RunSummaryView {
  return {
    id: r.id, run_id: r.id, status: r.status, workflow_id: r.workflow_id, workflow_name: r.workflow_name, workspace_path: r.workspace_path,
    write: r.write === 1, executor: r.executor, created_by: r.created_by, created_at: r.created_at, started_at: r.started_at, updated_at: r.updated_at,
    completed_at: r.completed_at, error: r.error, current_level: r.current_level, pull_request_url: r.pull_request_url, bundle_path: r.bundle_path, branch: r.branch,
  };
}

export function runView(db: DB, r: RunRow): RunView {
  return {
    ...runSummary(r), graph: runGraph(r), levels: runLevels(r), steps: listSteps(db, r.id),
    approvals: listApprovals(db, { runId: r.id }).map(toApproval), workdir: r.workdir,
  };
}
