/**
 * An agent that prints 50 MB (`[[fake:output-mb=50]]`) under a real `wfctl serve` (embedded scheduler, node run
 * inline in the serving process): the process's resident memory stays bounded (VmRSS sampled from /proc — a
 * bound, not a timing), the output is truncated with a note (agent_runs.truncated = 1, a system message
 * saying so, stored messages capped), and the run goes on to the next node and completes.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stmt } from '../../sql/stmt.js';
import { OUTPUT_CAP_BYTES } from '../../workers/agents/run.js';
import { edge, engineFixture, node, startRun, waitStatus } from '../queue/fixture.js';
import { invocationsOf, kill, sampleRss, serveUrl, stepsOf, wfctl, type Proc } from './fixture.js';

const RSS_BOUND_KB = 400 * 1024;

const Output = suite('faults/output');
const procs: Proc[] = [];
Output.after.each(() => {
  for (const p of procs.splice(0)) kill(p);
});

Output('50 MB of agent output :: memory bounded, truncated with a note, the run completes', async () => {
  const f = engineFixture();
  const serve = wfctl(f, ['serve', '--port', '0']);
  procs.push(serve);
  await serveUrl(serve);
  const rss = sampleRss(serve.pid, 25);
  const id = startRun(f, { nodes: [node('flood', 'flood [[fake:output-mb=50]]'), node('next', 'after-flood')], edges: [edge('flood', 'next')] });
  const run = await waitStatus(f.db, id, ['completed', 'failed', 'cancelled'], 45_000);
  const peakKb = rss.stop();
  if (process.env.FAULTS_VERBOSE) console.log(`serve peak VmRSS ${Math.round(peakKb / 1024)} MB over ${rss.samples()} samples`);
  assert.is(run.status, 'completed', run.error ?? '');
  assert.ok(rss.samples() > 0, 'memory was sampled');
  assert.ok(peakKb < RSS_BOUND_KB, `serve peak VmRSS ${Math.round(peakKb / 1024)} MB stays under ${RSS_BOUND_KB / 1024} MB`);

  const a = stmt(f.db, "SELECT id, status, truncated FROM agent_runs WHERE run_id = ? AND node_id = 'flood'").get(id) as { id: string; status: string; truncated: number };
  assert.equal([a.status, a.truncated], ['completed', 1]);
  const kept = stmt(f.db, 'SELECT count(*) AS n, coalesce(sum(length(content)), 0) AS bytes FROM agent_messages WHERE agent_run_id = ?').get(a.id) as { n: number; bytes: number };
  assert.ok(kept.bytes <= OUTPUT_CAP_BYTES + 64 * 1024, `stored output is capped (${kept.bytes} bytes)`);
  const note = stmt(f.db, "SELECT content FROM agent_messages WHERE agent_run_id = ? AND kind = 'system' AND content LIKE 'output truncated%'").get(a.id) as { content: string } | undefined;
  assert.ok(note, 'a note says the output was truncated');
  assert.match(note!.content, /MB/);

  assert.equal(stepsOf(f, id, 'flood').map((s) => s.status), ['completed']);
  assert.equal(stepsOf(f, id, 'next').map((s) => s.status), ['completed']);
  assert.is(invocationsOf(f, 'after-flood').length, 1);
  serve.child.kill('SIGTERM');
  assert.is((await serve.exited).code, 0);
});

Output.run();
