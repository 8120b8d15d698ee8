/**
 * An agent that never exits and ignores SIGTERM (`[[fake:hang]]`), with a grandchild in its process group
 * (`[[fake:spawn-child]]`), under a short node time-out (config.nodeTimeoutMs, i.e. WFCTL_NODE_TIMEOUT_MS; the
 * agent executor passes it to runAgent as the attempt's time limit): the node fails as timed out, the whole
 * group is killed (TERM, then KILL), and the run fails with logs naming the node.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listLogs } from '../../sql/logs.js';
import { stmt } from '../../sql/stmt.js';
import { pidAlive, waitFor } from '../helpers.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from '../queue/fixture.js';
import { invocationsOf, stepsOf } from './fixture.js';

const Hang = suite('faults/hang');

Hang('never-exiting agent :: timed out, its process group killed, the run fails naming the node', async () => {
  const f = engineFixture({ nodeTimeoutMs: 1000 });
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('stuck', 'hang-stuck [[fake:hang]] [[fake:spawn-child]]'), node('after', 'never-after')], edges: [edge('stuck', 'after')] });
    const run = await waitStatus(f.db, id, ['completed', 'failed', 'cancelled'], 30_000);
    assert.is(run.status, 'failed');
    assert.match(run.error ?? '', /'STUCK' \(stuck\)/);
    assert.match(run.error ?? '', /timed out/);

    const [step] = stepsOf(f, id, 'stuck');
    assert.is(step.status, 'failed');
    assert.match(step.error ?? '', /timed out after 1000 ms/);
    assert.equal(stepsOf(f, id, 'after'), [], 'nothing ran after the failed node');
    const agent = stmt(f.db, 'SELECT pid, status FROM agent_runs WHERE run_id = ? AND node_id = ?').get(id, 'stuck') as { pid: number; status: string };
    assert.is(agent.status, 'timed_out');

    // The agent ignored TERM (its log line says it got one); KILL of the group took it and its grandchild.
    const [inv] = invocationsOf(f, 'hang-stuck');
    assert.is((inv as unknown as { signal?: string }).signal, 'SIGTERM');
    const grandchild = (inv as unknown as { child_pid?: number }).child_pid;
    assert.ok(grandchild, 'the fake recorded its grandchild');
    await waitFor(() => !pidAlive(agent.pid) && !pidAlive(grandchild!), 5000, 20, 'the agent and its grandchild to be gone');
    assert.is(invocationsOf(f, 'never-after').length, 0);

    const logs = listLogs(f.db, id).map((l) => `${l.level} ${l.message}`);
    assert.ok(logs.some((m) => /^error node 'STUCK' \(stuck\) failed: .*timed out/.test(m)), logs.join('\n'));
    assert.ok(logs.some((m) => /^error run failed: node 'STUCK' \(stuck\) failed/.test(m)), logs.join('\n'));
  } finally {
    await s.stop();
  }
});

Hang.run();
