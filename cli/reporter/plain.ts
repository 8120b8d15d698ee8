/**
 * Plain timestamped lines for a pipe, a log file or CI: the run log as it grows, node completions (the log
 * itself only records starts and failures), notices, for a completed run the output of its last nodes (the report),
 * and a final summary. No colour, no cursor movement.
 */
import { nowIso } from '../../core/time.js';
import type { RunRow } from '../../sql/runs.js';
import { deliveryLine, labelOf, runResults, stepDuration, type Reporter, type RunResult, type RunSnapshot } from './types.js';

export class PlainReporter implements Reporter {
  private readonly announced = new Set<string>();

  constructor(private readonly out: NodeJS.WritableStream) {}

  private line(ts: string, level: string, text: string): void {
    this.out.write(`${ts} ${level.padEnd(5)} ${text}\n`);
  }

  start(run: RunRow, opts: { resumed: boolean }): void {
    const mode = run.write ? 'write' : 'read-only';
    const sandbox = run.sandbox ? 'sandboxed' : 'no sandbox';
    this.line(nowIso(), 'info', `${opts.resumed ? 'resuming' : 'starting'} run ${run.id}: workflow '${run.workflow_name}' on ${run.workspace_path} (${mode}, ${sandbox})`);
  }

  update(s: RunSnapshot): void {
    for (const l of s.newLogs) this.line(l.created_at, l.level, l.message);
    for (const step of s.steps) {
      if (step.status !== 'completed' || this.announced.has(step.id)) continue;
      this.announced.add(step.id);
      // Steps finished before this process looked (a resumed run's kept nodes) are not news.
      if (step.completed_at && step.completed_at < s.run.created_at) continue;
      const attempt = step.attempt > 1 ? ` on attempt ${step.attempt}` : '';
      this.line(step.completed_at ?? nowIso(), 'info', `node '${labelOf(s.graph, step.node_id)}' (${step.node_id}) completed${attempt} in ${stepDuration(step)}`);
    }
  }

  async notice(text: string): Promise<void> {
    this.line(nowIso(), 'info', text);
  }

  async pause(): Promise<void> {}

  resume(): void {}

  async finish({ ending, snapshot }: RunResult): Promise<void> {
    this.update({ ...snapshot, newLogs: [] });
    // The report before the verdict, so the last line still says how the run ended. Every line keeps the
    // timestamp and level prefix (grep-able CI logs); `--json` has the outputs unprefixed.
    if (ending === 'completed') {
      const ts = nowIso();
      for (const r of runResults(snapshot)) {
        this.line(ts, 'info', `output of '${r.label}' (${r.nodeId}):`);
        for (const l of r.output.split('\n')) this.line(ts, 'info', `│ ${l}`.trimEnd());
      }
    }
    const run = snapshot.run;
    const took = run.started_at && run.completed_at ? ` in ${stepDuration({ started_at: run.started_at, created_at: run.created_at, completed_at: run.completed_at })}` : '';
    const what = ending === 'timed_out' ? 'timed out (cancelled)' : run.status;
    this.line(nowIso(), ending === 'completed' ? 'info' : 'error', `run ${run.id} ${what}${took}${run.error && ending !== 'completed' ? `: ${run.error}` : ''}`);
    const d = deliveryLine(run);
    if (d) this.line(nowIso(), 'info', d);
  }
}
