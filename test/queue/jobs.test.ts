import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { backoffMs, complete, enqueue, fail, lease, queueEvents, renew } from '../../queue/jobs.js';
import { getJob } from '../../sql/jobs.js';
import { insertRun } from '../../sql/runs.js';
import { ROOT, spawnTracked, testDb } from '../helpers.js';

const graph = { nodes: [{ id: 'a', type: 'specialistAgent' as const, data: { label: 'A', objective: 'x' } }], edges: [] };

const Lease = suite('queue/jobs lease');

Lease('lease :: one owner gets a job; a second finds nothing while the lease holds', () => {
  const { db } = testDb();
  const id = enqueue(db, 'run.start', null, { hello: 1 });
  const a = lease(db, 'A', 10_000);
  assert.ok(a);
  assert.is(a!.id, id);
  assert.equal(a!.payload, { hello: 1 });
  assert.is(a!.attempts, 1);
  assert.is(lease(db, 'B', 10_000), undefined);
  assert.ok(complete(db, a!));
  assert.is(getJob(db, id)!.status, 'completed');
  assert.is(lease(db, 'B', 10_000), undefined);
});

Lease('lease :: oldest first; a job scheduled for later waits', () => {
  const { db } = testDb();
  const later = enqueue(db, 'run.level', null, {}, { delayMs: 60_000 });
  const first = enqueue(db, 'run.start', null);
  const second = enqueue(db, 'run.level', null);
  assert.is(lease(db, 'A', 10_000)!.id, first);
  assert.is(lease(db, 'A', 10_000)!.id, second);
  assert.is(lease(db, 'A', 10_000), undefined);
  assert.ok(later);
});

Lease('lease :: an expired lease is taken over in the same statement; the old owner can no longer complete', async () => {
  const { db } = testDb();
  enqueue(db, 'run.start', null);
  const a = lease(db, 'A', 500)!;
  await new Promise((r) => setTimeout(r, 600));
  const b = lease(db, 'B', 10_000);
  assert.ok(b);
  assert.is(b!.id, a.id);
  assert.is(b!.attempts, 2);
  assert.not.ok(complete(db, a), 'A lost the lease');
  assert.not.ok(renew(db, a, 10_000));
  assert.ok(complete(db, b!));
});

Lease('lease :: renew keeps a lease from expiring', async () => {
  const { db } = testDb();
  enqueue(db, 'run.start', null);
  const a = lease(db, 'A', 500)!;
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(renew(db, a, 500));
  }
  assert.is(lease(db, 'B', 500), undefined);
});

Lease('scope :: jobs of `wfctl run` runs go only to that run\'s scheduler', () => {
  const { db } = testDb();
  const cliRun = insertRun(db, { workflowId: null, workflowName: 'w', workspacePath: '/tmp', graph, executor: 'cli' });
  const serverRun = insertRun(db, { workflowId: null, workflowName: 'w', workspacePath: '/tmp', graph });
  const cliJob = enqueue(db, 'run.start', cliRun);
  const serverJob = enqueue(db, 'run.start', serverRun);
  assert.is(lease(db, 'daemon', 10_000)!.id, serverJob);
  assert.is(lease(db, 'daemon', 10_000), undefined);
  assert.is(lease(db, 'cli', 10_000, ['run.start'], { runId: cliRun })!.id, cliJob);
});

const Fail = suite('queue/jobs fail');

Fail('backoff :: doubles from the base and is capped', () => {
  assert.equal([1, 2, 3, 4].map((n) => backoffMs(n)), [1000, 2000, 4000, 8000]);
  assert.is(backoffMs(30), 300_000);
});

Fail('fail :: retryable goes back to pending after the back-off, then fails for good at max_attempts', async () => {
  const { db } = testDb();
  const id = enqueue(db, 'run.start', null, {}, { maxAttempts: 2 });
  const a = lease(db, 'A', 10_000)!;
  assert.ok(fail(db, a, 'boom', true, 100));
  const row = getJob(db, id)!;
  assert.is(row.status, 'pending');
  assert.is(row.last_error, 'boom');
  assert.is(lease(db, 'A', 10_000), undefined, 'not before the back-off');
  await new Promise((r) => setTimeout(r, 150));
  const b = lease(db, 'A', 10_000)!;
  assert.is(b.attempts, 2);
  assert.not.ok(fail(db, b, 'boom again', true, 100));
  assert.is(getJob(db, id)!.status, 'failed');
});

Fail('fail :: a non-retryable error fails at once', () => {
  const { db } = testDb();
  const id = enqueue(db, 'run.start', null);
  assert.not.ok(fail(db, lease(db, 'A', 10_000)!, 'bad payload', false));
  assert.is(getJob(db, id)!.status, 'failed');
});

const Wake = suite('queue/jobs wake-up');

Wake('notify :: enqueue in this process emits `enqueued` after the write', async () => {
  const { db } = testDb();
  const got = new Promise<string>((resolve) => {
    const on = (kind: string) => kind === 'run.level' && (queueEvents.off('enqueued', on), resolve(kind));
    queueEvents.on('enqueued', on);
  });
  const id = enqueue(db, 'run.level', null);
  assert.is(await got, 'run.level');
  assert.is(getJob(db, id)!.status, 'pending', 'the row is there when the notification arrives');
  assert.ok(lease(db, 'A', 10_000));
});

Wake('contention :: two processes leasing the same queue take every job exactly once', async () => {
  const { db, config } = testDb();
  const N = 400;
  db.transaction(() => {
    for (let i = 0; i < N; i++) enqueue(db, 'run.level', null, { i });
  }).immediate();
  const script = `
    import { openDatabase } from ${JSON.stringify(path.join(ROOT, 'dist/sql/db.js'))};
    import { lease, complete } from ${JSON.stringify(path.join(ROOT, 'dist/queue/jobs.js'))};
    const db = openDatabase({ home: process.env.H, dbPath: process.env.D, busyTimeoutMs: 5000 });
    const ids = [];
    for (let j; (j = lease(db, process.env.O, 60000)); ) { ids.push(j.payload.i); complete(db, j); }
    process.stdout.write(JSON.stringify(ids));
  `;
  const run = (owner: string) =>
    new Promise<number[]>((resolve, reject) => {
      const c = spawnTracked(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, H: config.home, D: config.dbPath, O: owner } });
      let out = '';
      let err = '';
      c.stdout!.on('data', (d) => (out += d));
      c.stderr!.on('data', (d) => (err += d));
      c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
    });
  const [a, b] = await Promise.all([run('P1'), run('P2')]);
  const all = [...a, ...b].sort((x, y) => x - y);
  assert.is(all.length, N, `each job once (P1 ${a.length}, P2 ${b.length})`);
  assert.equal(all, Array.from({ length: N }, (_, i) => i));
});

Lease.run();
Fail.run();
Wake.run();
