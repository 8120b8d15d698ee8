import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRun } from '../../queue/lifecycle.js';
import { lease } from '../../queue/jobs.js';
import { sweep, Sweeper } from '../../queue/sweeper.js';
import { listApprovals } from '../../sql/approvals.js';
import { getJob } from '../../sql/jobs.js';
import { listLogs } from '../../sql/logs.js';
import { getRun, heartbeat } from '../../sql/runs.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from './fixture.js';

const Sweep = suite('queue/sweeper');

Sweep('expiry :: the periodic sweeper expires a pending approval with nobody asking', async () => {
  const f = engineFixture({ sweepIntervalMs: 100 });
  const s = scheduler(f);
  const sw = new Sweeper(f.db, f.config).start();
  try {
    const id = startRun(f, { nodes: [node('gate', 'approve me', { timeoutHours: 0.0001 }, 'humanApproval'), node('next')], edges: [edge('gate', 'next')] });
    await waitStatus(f.db, id, ['waiting_approval']);
    const run = await waitStatus(f.db, id, ['cancelled'], 5000);
    assert.ok(run.completed_at);
    assert.is(listApprovals(f.db, { runId: id })[0].status, 'expired');
    assert.ok(listLogs(f.db, id).some((l) => /expired .*run cancelled/.test(l.message)));
  } finally {
    sw.stop();
    await s.stop();
  }
});

Sweep('executor lost :: an active CLI run whose heartbeat went stale fails; a fresh one is left alone', () => {
  const f = engineFixture();
  const graph = { nodes: [node('a')], edges: [] };
  const stale = createRun(f.db, { workflowId: null, workflowName: 'w', graph, workspacePath: f.repo, executor: 'cli' }).id;
  const fresh = createRun(f.db, { workflowId: null, workflowName: 'w', graph, workspacePath: f.repo, executor: 'cli' }).id;
  const server = createRun(f.db, { workflowId: null, workflowName: 'w', graph, workspacePath: f.repo }).id;
  f.db.prepare("UPDATE workflow_runs SET heartbeat_at = '2000-01-01T00:00:00.000Z' WHERE id IN (?, ?)").run(stale, server);
  heartbeat(f.db, fresh);
  const r = sweep(f.db, f.config);
  assert.is(r.lost, 1);
  const run = getRun(f.db, stale)!;
  assert.is(run.status, 'failed');
  assert.match(run.error!, /executor lost/);
  assert.ok(run.completed_at);
  assert.is(getRun(f.db, fresh)!.status, 'queued');
  assert.is(getRun(f.db, server)!.status, 'queued', 'server runs are adopted by schedulers, never reaped');
});

Sweep('abandoned :: a job whose lease expired after its last attempt is failed with its run', async () => {
  const f = engineFixture();
  const id = createRun(f.db, { workflowId: null, workflowName: 'w', graph: { nodes: [node('a')], edges: [] }, workspacePath: f.repo }).id;
  f.db.prepare("UPDATE jobs SET max_attempts = 1 WHERE run_id = ?").run(id);
  const job = lease(f.db, 'dead', 500)!;
  await new Promise((r) => setTimeout(r, 600));
  assert.is(lease(f.db, 'other', 500), undefined, 'no attempts left');
  assert.is(sweep(f.db, f.config).abandoned, 1);
  assert.is(getJob(f.db, job.id)!.status, 'failed');
  assert.is(getRun(f.db, id)!.status, 'failed');
});

Sweep.run();
