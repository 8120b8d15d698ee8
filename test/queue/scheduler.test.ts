import { suite } from 'uvu';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { createNodePool } from '../../workers/pool.js';
import { cancelRun, resumeRun } from '../../queue/lifecycle.js';
import { listLogs } from '../../sql/logs.js';
import { getRun, runContext } from '../../sql/runs.js';
import { latestSteps, listSteps } from '../../sql/steps.js';
import { eventsAfter } from '../../sql/events.js';
import { pidAlive, waitFor } from '../helpers.js';
import { edge, engineFixture, maxOverlap, node, parallelFan, scheduler, startRun, waitStatus } from './fixture.js';

const Flow = suite('queue/scheduler run flow');

Flow('sequential :: a chain runs level by level to completed, with the spec\'s log messages', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('a'), node('b'), node('c')], edges: [edge('a', 'b'), edge('b', 'c')] });
    const run = await waitStatus(f.db, id, ['completed', 'failed', 'cancelled']);
    assert.is(run.status, 'completed');
    assert.ok(run.completed_at && run.started_at);
    const steps = listSteps(f.db, id);
    assert.equal(steps.map((x) => [x.node_id, x.status, x.level]), [['a', 'completed', 0], ['b', 'completed', 1], ['c', 'completed', 2]]);
    const logs = listLogs(f.db, id).map((l) => l.message);
    assert.match(logs[0], /run started: 3 nodes in 3 levels/);
    assert.ok(logs.some((m) => /node 'A' \(a\) started/.test(m)));
    assert.match(logs[logs.length - 1], /run completed/);
    const inv = f.invocations();
    assert.is(inv.length, 3);
    assert.ok(inv.every((i) => i.cwd.includes(`/artifacts/runs/${id}/workspace`)), 'agents run in the isolated copy');
    const types = new Set(eventsAfter(f.db, 0, id, 1000).map((e) => e.type));
    for (const t of ['run.status', 'node.status', 'log', 'agent.started', 'agent.completed'] as const) assert.ok(types.has(t), `event ${t}`);
  } finally {
    await s.stop();
  }
});

Flow('write run :: at completion the copy\'s changes are delivered (no remote → a bundle), the user\'s checkout untouched', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('edit', 'edit [[fake:write=NEW.md:hello]]')], edges: [] }, { write: true });
    const run = await waitStatus(f.db, id, ['completed', 'failed']);
    assert.is(run.status, 'completed', run.error ?? '');
    assert.ok(run.bundle_path && run.branch, 'delivered as a bundle');
    assert.ok(listLogs(f.db, id).some((l) => /^delivery: /.test(l.message)));
    assert.ok(eventsAfter(f.db, 0, id, 1000).some((e) => e.type === 'run.artifacts'));
    assert.not.ok(existsSync(path.join(f.repo, 'NEW.md')), 'the repository itself is not edited');
  } finally {
    await s.stop();
  }
});

const Concurrency = suite('queue/scheduler concurrency');

Concurrency('limit 1 :: sequential delegation runs a level\'s nodes one at a time', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, parallelFan([['x', 'x [[fake:sleep=0.3]]'], ['y', 'y [[fake:sleep=0.3]]'], ['z', 'z [[fake:sleep=0.3]]']], 'sequential_delegation'));
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const level = f.invocations().filter((i) => !i.argv.join(' ').includes('[[fake:answer=plan ready]]'));
    assert.is(level.length, 3);
    assert.is(maxOverlap(level), 1);
  } finally {
    await s.stop();
  }
});

Concurrency('limit 3 :: parallel delegation runs at most 3 at once, on the Piscina pool', async () => {
  const f = engineFixture({ maxAgents: 8 });
  const pool = createNodePool(f.config);
  const s = scheduler(f, { pool });
  try {
    const ids: Array<[string, string]> = ['p1', 'p2', 'p3', 'p4', 'p5'].map((x) => [x, `${x} [[fake:sleep=0.6]]`]);
    const id = startRun(f, parallelFan(ids));
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const level = f.invocations().filter((i) => !i.argv.join(' ').includes('[[fake:answer=plan ready]]'));
    assert.is(level.length, 5);
    const overlap = maxOverlap(level);
    assert.ok(overlap <= 3, `at most 3 overlap, saw ${overlap}`);
    assert.ok(overlap >= 2, `nodes did run concurrently, saw ${overlap}`);
  } finally {
    await s.stop();
    await pool.close();
  }
});

Concurrency('inline :: a level of one node, or with limit 1, runs in the scheduler; only parallel levels use the pool', async () => {
  const f = engineFixture();
  const pool = createNodePool(f.config);
  const pooled: string[] = [];
  const spy = { size: pool.size, close: () => pool.close(), run: (t: { nodeId: string; runId: string; level: number }) => (pooled.push(t.nodeId), pool.run(t)) };
  const s = scheduler(f, { pool: spy });
  try {
    const g = parallelFan([['l', 'left'], ['r', 'right']]);
    g.nodes.push(node('end', 'end'));
    g.edges.push(edge('l', 'end'), edge('r', 'end'));
    assert.is((await waitStatus(f.db, startRun(f, g), ['completed', 'failed'])).status, 'completed');
    assert.equal(pooled.sort(), ['l', 'r'], 'the supervisor and the join ran inline');
    pooled.length = 0;
    assert.is((await waitStatus(f.db, startRun(f, parallelFan([['a', 'a'], ['b', 'b']], 'sequential_delegation')), ['completed', 'failed'])).status, 'completed');
    assert.equal(pooled, [], 'limit 1 runs inline');
  } finally {
    await s.stop();
    await pool.close();
  }
});

Concurrency('context :: summaries join after the level in fixed node order, not finish order', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const g = parallelFan([['slow', 'slow [[fake:sleep=0.5]] [[fake:answer=SLOW-RESULT]]'], ['fast', 'fast [[fake:answer=FAST-RESULT]]']]);
    g.nodes.push(node('next', 'summarise'));
    g.edges.push(edge('slow', 'next'), edge('fast', 'next'));
    const id = startRun(f, g);
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const inv = f.invocations();
    const slow = inv.find((i) => i.argv.join(' ').includes('SLOW-RESULT'))!;
    const fast = inv.find((i) => i.argv.join(' ').includes('FAST-RESULT'))!;
    assert.ok(fast.end! < slow.end!, 'fast finished first');
    const prompts = f.prompts();
    const last = prompts[prompts.length - 1];
    assert.ok(last.indexOf('SLOW-RESULT') >= 0 && last.indexOf('SLOW-RESULT') < last.indexOf('FAST-RESULT'), 'graph order, not finish order');
    assert.equal(runContext(getRun(f.db, id)!).map((e) => e.node_id), ['sup', 'slow', 'fast', 'next']);
  } finally {
    await s.stop();
  }
});

Concurrency('scope :: agent_private and team summaries reach only the nodes allowed', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const g = {
      nodes: [
        node('priv', 'p [[fake:answer=PRIVATE-NOTE]]', { memoryScope: 'agent_private' as const }),
        node('team', 't [[fake:answer=TEAM-NOTE]]', { memoryScope: 'team' as const, generatedBy: 'boss' }),
        node('mate', 'mate reads', { generatedBy: 'boss' }),
        node('stranger', 'stranger reads'),
      ],
      edges: [edge('priv', 'mate'), edge('team', 'mate'), edge('priv', 'stranger'), edge('team', 'stranger')],
    };
    const id = startRun(f, g);
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const prompts = f.prompts();
    const mate = prompts.find((p) => p.includes('mate reads'))!;
    const stranger = prompts.find((p) => p.includes('stranger reads'))!;
    assert.ok(mate.includes('TEAM-NOTE') && !mate.includes('PRIVATE-NOTE'));
    assert.ok(!stranger.includes('TEAM-NOTE') && !stranger.includes('PRIVATE-NOTE'));
  } finally {
    await s.stop();
  }
});

const Failure = suite('queue/scheduler failure, retry, resume');

Failure('failure :: siblings finish first, then the run fails with node and run error logs', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const g = parallelFan([['bad', 'bad [[fake:fail=compile error]]'], ['slow', 'slow [[fake:sleep=0.5]]']]);
    g.nodes.push(node('never', 'never runs'));
    g.edges.push(edge('bad', 'never'));
    const id = startRun(f, g);
    const run = await waitStatus(f.db, id, ['completed', 'failed']);
    assert.is(run.status, 'failed');
    assert.ok(run.completed_at);
    const latest = latestSteps(f.db, id);
    assert.is(latest.get('bad')!.status, 'failed');
    assert.is(latest.get('slow')!.status, 'completed', 'the sibling finished');
    assert.not.ok(latest.has('never'));
    assert.ok(Date.parse(run.completed_at!) >= Date.parse(latest.get('slow')!.completed_at!), 'run failed after the sibling finished');
    const errors = listLogs(f.db, id).filter((l) => l.level === 'error').map((l) => l.message);
    assert.is(errors.length, 2);
    assert.match(errors[0], /node 'BAD' \(bad\) failed: .*compile error/);
    assert.match(errors[1], /run failed: node 'BAD' \(bad\) failed/);
  } finally {
    await s.stop();
  }
});

Failure('retries :: maxIterations 2 retries a failing node once, one step row per attempt', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('flaky', 'flaky [[fake:fail-attempts=1:retry]]', { maxIterations: 2 })], edges: [] });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    assert.equal(listSteps(f.db, id).map((x) => [x.attempt, x.status]), [[1, 'failed'], [2, 'completed']]);
  } finally {
    await s.stop();
  }
});

Failure('retries :: maxIterations 1 means no retry', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('once', 'once [[fake:fail-attempts=1:noretry]]', { maxIterations: 1 })], edges: [] });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'failed');
    assert.is(listSteps(f.db, id).length, 1);
  } finally {
    await s.stop();
  }
});

Failure('resume :: a failed run re-runs only the failed node; completed siblings are skipped', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const g = parallelFan([['ok', 'ok sibling'], ['flaky', 'flaky [[fake:fail-attempts=1:resume]]']]);
    g.nodes.push(node('last', 'last step'));
    g.edges.push(edge('ok', 'last'), edge('flaky', 'last'));
    const id = startRun(f, g);
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'failed');
    const before = f.invocations().length;
    const resumed = resumeRun(f.db, id);
    assert.is(resumed.status, 'queued');
    assert.is(resumed.completed_at, null);
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const again = f.invocations().slice(before).map((i) => i.argv.join(' '));
    assert.is(again.length, 2, 'the failed node and the next level only');
    assert.ok(again.some((a) => a.includes('flaky')) && again.some((a) => a.includes('last step')));
    assert.is(f.invocations().filter((i) => i.argv.join(' ').includes('ok sibling')).length, 1);
    assert.is(f.invocations().filter((i) => i.argv.join(' ').includes('[[fake:answer=plan ready]]')).length, 1);
    assert.throws(() => resumeRun(f.db, id), /only a failed run/);
  } finally {
    await s.stop();
  }
});

Failure('lease lost :: a scheduler whose lease was taken over does not advance the run', async () => {
  const f = engineFixture({ leaseMs: 600 });
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('slow', 'slow [[fake:sleep=1.5]]'), node('next')], edges: [edge('slow', 'next')] });
    await waitFor(() => f.db.prepare("SELECT pid FROM agent_runs WHERE run_id = ? AND pid IS NOT NULL").pluck().get(id), 10_000);
    // Another scheduler took the level job over (as after a stall past the lease's expiry).
    f.db.prepare("UPDATE jobs SET lease_owner = 'thief', lease_expires_at = '2999-01-01T00:00:00.000Z' WHERE run_id = ? AND kind = 'run.level' AND status = 'leased'").run(id);
    await waitFor(() => latestSteps(f.db, id).get('slow')?.status === 'completed', 10_000);
    await waitFor(() => s.status().active_jobs === 0, 10_000);
    const levelJobs = f.db.prepare("SELECT payload FROM jobs WHERE run_id = ? AND kind = 'run.level'").pluck().all(id);
    assert.equal(levelJobs, ['{"level":0}'], 'no next level enqueued by the loser');
    assert.is(getRun(f.db, id)!.status, 'running');
  } finally {
    await s.stop(0);
  }
});

const Cancel = suite('queue/scheduler cancel');

Cancel('cancel :: a sleeping agent is killed by the progress poller and its process is gone', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('sleepy', 'sleepy [[fake:sleep=30]]'), node('after')], edges: [edge('sleepy', 'after')] });
    const started = await waitFor(() => eventsAfter(f.db, 0, id, 1000).find((e) => e.type === 'agent.started' && e.payload.pid), 10_000, 20, 'agent start');
    const pid = Number(started.payload.pid);
    assert.ok(pidAlive(pid));
    const run = cancelRun(f.db, id, 'test cancel');
    assert.is(run.status, 'cancelled');
    assert.ok(run.completed_at);
    await waitFor(() => !pidAlive(pid), 10_000, 20, 'agent process to die');
    await waitFor(() => s.status().active_jobs === 0, 10_000, 20, 'level job to end');
    assert.is(getRun(f.db, id)!.status, 'cancelled');
    const steps = listSteps(f.db, id);
    assert.equal(steps.map((x) => [x.node_id, x.status]), [['sleepy', 'cancelled']], 'the next level never started');
    assert.throws(() => cancelRun(f.db, id), /already cancelled/);
  } finally {
    await s.stop();
  }
});

Cancel('cancel :: a queued run cancelled before execution never starts', async () => {
  const f = engineFixture();
  const id = startRun(f, { nodes: [node('a')], edges: [] });
  cancelRun(f.db, id);
  const s = scheduler(f);
  try {
    await waitFor(() => f.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE run_id = ? AND status = 'completed'").get(id) as { n: number }, 5000);
    await waitFor(() => (f.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE run_id = ? AND status <> 'completed'").get(id) as { n: number }).n === 0, 5000);
    assert.is(getRun(f.db, id)!.status, 'cancelled');
    assert.is(f.invocations().length, 0);
  } finally {
    await s.stop();
  }
});

Flow.run();
Concurrency.run();
Failure.run();
Cancel.run();
