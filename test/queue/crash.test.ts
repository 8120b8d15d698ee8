import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRun } from '../../queue/lifecycle.js';
import { getRun } from '../../sql/runs.js';
import { listSteps } from '../../sql/steps.js';
import { exited, gitRepo, pidAlive, spawnTracked, tempDir, testConfig, testDb, testEnv, waitFor, WFCTL_BIN } from '../helpers.js';
import { edge, node } from './fixture.js';

const Crash = suite('queue/scheduler crash safety');

Crash('kill -9 :: a worker killed mid-level leaves a lease another worker takes over; completed nodes never run twice', async () => {
  const { db, config } = testDb(testConfig());
  const scratch = tempDir('wfctl-crash-');
  const fakeLog = path.join(scratch, 'fake.log');
  const env = testEnv(config.home, { WFCTL_LEASE_MS: '1000', WFCTL_FAKE_LOG: fakeLog, WFCTL_FAKE_STATE: path.join(scratch, 'state'), WFCTL_SWEEP_MS: '200' });
  const repo = gitRepo();
  const runId = createRun(db, {
    workflowId: null, workflowName: 'crash', workspacePath: repo, sandbox: false,
    graph: { nodes: [node('a', 'first [[fake:answer=A-DONE]]'), node('b', 'second [[fake:sleep=2]]'), node('c', 'third')], edges: [edge('a', 'b'), edge('b', 'c')] },
  }).id;
  const start = () => {
    const w = spawnTracked(process.execPath, [WFCTL_BIN, 'worker'], { env });
    let err = '';
    w.stderr!.on('data', (d) => (err += d));
    return { w, err: () => err };
  };
  const first = start();
  const agentPid = await waitFor(() => db.prepare("SELECT pid FROM agent_runs WHERE run_id = ? AND node_id = 'b' AND pid IS NOT NULL").pluck().get(runId) as number | undefined, 20_000, 20, `node b to start (${first.err()})`);
  first.w.kill('SIGKILL');
  await exited(first.w);
  // The orphaned agent of the dead worker is not ours to keep; it is the in-flight attempt that was lost.
  try {
    process.kill(-agentPid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  await waitFor(() => !pidAlive(agentPid), 5000);
  assert.is(getRun(db, runId)!.status, 'running');

  const second = start();
  try {
    await waitFor(() => ['completed', 'failed', 'cancelled'].includes(getRun(db, runId)!.status), 30_000, 50, `run to end (${second.err()})`);
    assert.is(getRun(db, runId)!.status, 'completed', getRun(db, runId)!.error ?? '');
    const lines = existsSync(fakeLog) ? readFileSync(fakeLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
    const ran = (text: string) => lines.filter((l: { argv: string[] }) => l.argv.join(' ').includes(text)).length;
    assert.is(ran('[[fake:answer=A-DONE]]'), 1, 'the completed node did not run again');
    assert.is(ran('third'), 1);
    assert.is(ran('[[fake:sleep=2]]'), 1, 'the killed attempt wrote no line (SIGKILL); the re-run did');
    const b = listSteps(db, runId).filter((s) => s.node_id === 'b');
    assert.equal(b.map((s) => s.status), ['failed', 'completed'], 'the in-flight node ran again as a new attempt');
    assert.match(b[0].error!, /interrupted/);
    assert.equal(db.prepare("SELECT status FROM agent_runs WHERE run_id = ? AND node_id = 'b' ORDER BY started_at").pluck().all(runId), ['failed', 'completed']);
  } finally {
    second.w.kill('SIGTERM');
    await exited(second.w);
  }
});

Crash.run();
