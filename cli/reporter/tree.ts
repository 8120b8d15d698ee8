/**
 * The live tree on a terminal (listr2's default renderer): one task per level, one subtask per node with its
 * live status, attempt number, duration and the agent's latest message line under it.
 *
 * listr2 draws a fixed task list, while a run's shape changes (run-time planning adds levels) and a gate needs
 * the terminal for a prompt. So the tree is drawn in segments: a segment covers the known levels up to and
 * including the next gate; it ends when those levels settle, or at once when pause() / finish() ask, and its
 * last frame stays on screen. The next segment starts at the first level that has not settled.
 */
import { Listr, type ListrTask } from 'listr2';
import type { Level } from '../../core/graph.js';
import type { RunRow } from '../../sql/runs.js';
import type { StepRow } from '../../sql/steps.js';
import { approvalHowTo, deliveryLine, labelOf, latestByNode, runResults, stepDuration, type Reporter, type RunResult, type RunSnapshot } from './types.js';

const SETTLED = new Set<StepRow['status']>(['completed', 'failed', 'skipped', 'cancelled']);
const ACTIVE_RUN = new Set(['queued', 'running', 'waiting_approval']);

export class TreeReporter implements Reporter {
  private snap?: RunSnapshot;
  private readonly waiters = new Set<() => void>();
  private nextLevel = 0;
  private paused = false;
  /** Tasks of the current segment settle at once (pause or finish). */
  private stopping = false;
  private finishing = false;
  /** A task of the segment was cut short (not settled): the next segment redraws from the same level. */
  private stoppedEarly = false;
  private segment?: Promise<void>;
  private loopDone?: Promise<void>;

  constructor(private readonly out: NodeJS.WritableStream) {}

  start(run: RunRow, opts: { resumed: boolean }): void {
    this.out.write(`${opts.resumed ? 'Resuming' : 'Running'} '${run.workflow_name}' on ${run.workspace_path} (${run.write ? 'write' : 'read-only'}${run.sandbox ? '' : ', no sandbox'})\nrun ${run.id}\n`);
    this.loopDone = this.loop();
  }

  update(s: RunSnapshot): void {
    this.snap = s;
    for (const w of [...this.waiters]) w();
  }

  async notice(text: string): Promise<void> {
    const wasPaused = this.paused;
    await this.pause();
    this.out.write(`${text}\n`);
    if (!wasPaused) this.resume();
  }

  async pause(): Promise<void> {
    this.paused = true;
    this.stopping = true;
    if (this.snap) this.update(this.snap);
    await this.segment;
  }

  resume(): void {
    this.paused = false;
    this.stopping = false;
    if (this.snap) this.update(this.snap);
  }

  async finish({ ending, snapshot }: RunResult): Promise<void> {
    this.finishing = true;
    this.paused = false;
    this.update(snapshot);
    await this.loopDone;
    // The report under the tree, before the verdict (the last line says how the run ended).
    if (ending === 'completed') for (const r of runResults(snapshot)) this.out.write(`\n── ${r.label} (${r.nodeId}) ──\n${r.output}\n`);
    const run = snapshot.run;
    const took = run.started_at && run.completed_at ? ` in ${stepDuration({ started_at: run.started_at, created_at: run.created_at, completed_at: run.completed_at })}` : '';
    const what = ending === 'timed_out' ? 'timed out (cancelled)' : run.status;
    this.out.write(`\nrun ${run.id} ${what}${took}${run.error && ending !== 'completed' ? `: ${run.error}` : ''}\n`);
    const d = deliveryLine(run);
    if (d) this.out.write(`${d}\n`);
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => {
      const w = () => {
        this.waiters.delete(w);
        resolve();
      };
      this.waiters.add(w);
    });
  }

  /** Draws segments until finish(); the final segment shows every level not yet drawn, settled. */
  private async loop(): Promise<void> {
    for (;;) {
      const s = this.snap;
      const levels = s?.levels ?? [];
      if (this.finishing && (this.nextLevel >= levels.length || !s)) return;
      if (!s || this.paused || this.nextLevel >= levels.length) {
        await this.changed();
        continue;
      }
      const from = this.nextLevel;
      if (!this.finishing && !ACTIVE_RUN.has(s.run.status)) {
        // The run ended between segments: the final segment is drawn by finish().
        await this.changed();
        continue;
      }
      let to = from;
      while (to < levels.length - 1 && !levels[to].approval) to++;
      const last = this.finishing;
      this.stopping = last;
      this.segment = this.draw(levels.slice(from, to + 1));
      await this.segment;
      this.segment = undefined;
      this.nextLevel = this.stoppedEarly ? from : this.firstUnsettled(from, to);
      this.stoppedEarly = false;
      if (last) this.nextLevel = Math.max(this.nextLevel, to + 1);
    }
  }

  private firstUnsettled(from: number, to: number): number {
    const s = this.snap!;
    const latest = latestByNode(s.steps);
    for (let i = from; i <= to; i++) {
      if (!s.levels[i].nodeIds.every((id) => SETTLED.has(latest.get(id)?.status as StepRow['status']))) return i;
    }
    return to + 1;
  }

  private async draw(levels: Level[]): Promise<void> {
    const tasks: ListrTask[] = levels.map((level) => ({
      title: `Level ${level.index + 1}${level.approval ? ' · approval gate' : ` · ${level.nodeIds.length} node${level.nodeIds.length === 1 ? '' : 's'}`}`,
      task: (_ctx, task) => task.newListr(level.nodeIds.map((id) => this.nodeTask(id)), { concurrent: true, exitOnError: false }),
    }));
    const list = new Listr(tasks, {
      concurrent: false,
      exitOnError: false,
      registerSignalListeners: false,
      renderer: 'default',
      fallbackRendererCondition: false,
      rendererOptions: { collapseSubtasks: false, collapseSkips: true, showSkipMessage: true, collapseErrors: false, formatOutput: 'truncate' },
    });
    await list.run().catch(() => undefined);
  }

  private nodeTask(nodeId: string): ListrTask {
    return {
      title: nodeId,
      rendererOptions: { outputBar: 1, persistentOutput: false },
      task: (_ctx, task) =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            const s = this.snap!;
            const label = labelOf(s.graph, nodeId);
            const node = s.graph.nodes.find((n) => n.id === nodeId);
            const max = node?.data.maxIterations ?? 1;
            const step = latestByNode(s.steps).get(nodeId);
            const agent = node && node.type !== 'humanApproval' && node.data.sandboxAgent ? ` [${node.data.sandboxAgent}]` : '';
            const attempt = step && (max > 1 || step.attempt > 1) ? ` · attempt ${step.attempt}/${Math.max(max, step.attempt)}` : '';
            const status = !step ? 'waiting' : step.status === 'waiting_approval' ? 'awaiting approval' : step.status;
            const dur = step && step.status !== 'skipped' ? ` · ${stepDuration(step)}` : '';
            task.title = `${label}${agent} · ${status}${attempt}${dur}`;
            const msg = s.lastMessage.get(nodeId);
            if (step?.status === 'running' && msg) task.output = msg;
            if (step?.status === 'waiting_approval' && s.pendingApproval) task.output = approvalHowTo(s.pendingApproval);
            const runOver = !ACTIVE_RUN.has(s.run.status);
            // A failed attempt with attempts left is followed by the next one in a moment: not the end yet.
            const retrying = step?.status === 'failed' && step.attempt < max && s.run.status === 'running';
            const settle = step && SETTLED.has(step.status) && !retrying;
            if (!settle && !runOver && !this.stopping && step?.status !== 'waiting_approval') return;
            this.waiters.delete(check);
            if (!settle && !runOver && step?.status !== 'waiting_approval') {
              // Stopped for a prompt or a notice while still going: drawn as paused, and drawn again after.
              this.stoppedEarly = true;
              task.skip(`${task.title} …`);
              return resolve();
            }
            if (step?.status === 'failed') reject(new Error(step.error ? step.error.split('\n')[0].slice(0, 200) : 'failed'));
            else if (!step && runOver) (task.skip(`${label} · not run`), resolve());
            else if (step?.status === 'skipped' || step?.status === 'cancelled') (task.skip(task.title), resolve());
            else resolve();
          };
          this.waiters.add(check);
          check();
        }),
    };
  }
}
