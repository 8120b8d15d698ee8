/**
 * `--json`: nothing while the run goes on, then exactly one JSON object on stdout (design §10):
 * `{ run_id, status, workflow_id, workspace_path, completed_at, steps: [...], pull_request?, error? }`.
 * Notices (approval how-to, cancelling) go to stderr so stdout stays parseable.
 */
import type { RunRow } from '../../sql/runs.js';
import type { RunSummaryView } from '../../queue/view.js';
import type { StepRow } from '../../sql/steps.js';
import type { Graph } from '../../core/graph.js';
import { labelOf, type Reporter, type RunEnding, type RunResult } from './types.js';

/** The run's own fields as the API's summary names them (queue/view.ts), plus the terminal's outcome. */
export interface RunJson extends Pick<RunSummaryView, 'run_id' | 'status' | 'workflow_id' | 'workflow_name' | 'workspace_path' | 'write' | 'started_at' | 'completed_at'> {
  timed_out: boolean;
  steps: Array<{
    node_id: string; label: string; type: string; level: number; attempt: number; status: StepRow['status'];
    started_at: string | null; completed_at: string | null; summary: string | null; output: string | null; error: string | null;
  }>;
  pull_request?: { url: string | null; branch: string | null; bundle_path: string | null };
  error?: string;
}

/** The JSON result of a run (also used by tests and the pre-commit gate). */
export function runJson(run: RunRow, graph: Graph, steps: StepRow[], ending?: RunEnding): RunJson {
  const out: RunJson = {
    run_id: run.id, status: run.status, workflow_id: run.workflow_id, workflow_name: run.workflow_name, workspace_path: run.workspace_path,
    write: run.write === 1, started_at: run.started_at, completed_at: run.completed_at, timed_out: ending === 'timed_out',
    steps: steps.map((s) => ({
      node_id: s.node_id, label: labelOf(graph, s.node_id), type: s.node_type, level: s.level, attempt: s.attempt, status: s.status,
      started_at: s.started_at, completed_at: s.completed_at, summary: s.summary, output: s.output, error: s.error,
    })),
  };
  if (run.pull_request_url || run.bundle_path) out.pull_request = { url: run.pull_request_url, branch: run.branch, bundle_path: run.bundle_path };
  if (run.error) out.error = run.error;
  return out;
}

export class JsonReporter implements Reporter {
  constructor(private readonly out: NodeJS.WritableStream, private readonly err: NodeJS.WritableStream) {}

  start(): void {}

  update(): void {}

  async notice(text: string): Promise<void> {
    this.err.write(`wfctl: ${text}\n`);
  }

  async pause(): Promise<void> {}

  resume(): void {}

  async finish({ ending, snapshot }: RunResult): Promise<void> {
    this.out.write(JSON.stringify(runJson(snapshot.run, snapshot.graph, snapshot.steps, ending)) + '\n');
  }
}
