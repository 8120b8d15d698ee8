import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { runRecordedAgent } from '../../../workers/agents/record.js';
import { runAgent } from '../../../workers/agents/run.js';
import { exited, FAKE_BIN, gitRepo, runWfctl, spawnTracked, tempDir, testDb, testEnv, waitFor, WFCTL_BIN } from '../../helpers.js';

process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
const Remote = suite('workers/agents/remote');

// A real `wfctl runner` child process with its own home; this process is the containerised server's side.
const runnerHome = tempDir();
const port = 20000 + Math.floor(Math.random() * 20000);
let runner: ReturnType<typeof spawnTracked>;

Remote.before(async () => {
  runner = spawnTracked(process.execPath, [WFCTL_BIN, 'runner', '--port', String(port)], { env: testEnv(runnerHome) });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, 15_000, 100, 'runner up');
});

Remote.after(async () => {
  runner.kill('SIGTERM');
  await exited(runner, 15_000).catch(() => runner.kill('SIGKILL'));
});

/** This process plays the containerised server: its config names the runner and shares the runner's secret file. */
const viaRunner = () => ({ url: `http://127.0.0.1:${port}`, home: runnerHome });

async function approved(): Promise<string> {
  const repo = gitRepo();
  const r = await runWfctl(['workspace', 'approve', repo], { env: testEnv(runnerHome) });
  assert.is(r.code, 0, r.stderr);
  return repo;
}

Remote('remote :: with WFCTL_RUNNER_URL the agent runs on the host runner; messages and answer come back', async () => {
  const repo = await approved();
  const messages: unknown[] = [];
  const res = await runAgent({ agent: 'claude', prompt: 'Hi [[fake:answer=from the host]]', cwd: repo, write: false, runtime: 'direct', sandbox: false, timeoutMs: 20_000, runner: viaRunner() }, { onMessage: (m) => messages.push(m) });
  assert.is(res.status, 'completed', res.error);
  assert.is(res.finalText, 'from the host');
  assert.ok(messages.length >= 3);
  assert.ok(res.command.some((a) => a.startsWith('<prompt: ')));
});

Remote('remote :: recorded: agent.started comes before the messages; no pid is stored', async () => {
  const repo = await approved();
  const { db } = testDb();
  const runId = randomUUID();
  db.prepare("INSERT INTO workflow_runs (id, workflow_name, workspace_path, graph) VALUES (?, 'wf', '/tmp', '{}')").run(runId);
  const res = await runRecordedAgent(db, { runId, stepRunId: null, nodeId: 'n' }, { agent: 'gemini', prompt: 'x', cwd: repo, write: false, runtime: 'direct', sandbox: false, timeoutMs: 20_000, runner: viaRunner() });
  assert.is(res.status, 'completed', res.error);
  const types = (db.prepare('SELECT type FROM run_events WHERE run_id = ? ORDER BY id').all(runId) as Array<{ type: string }>).map((e) => e.type);
  assert.is(types[0], 'agent.started');
  assert.is(types[types.length - 1], 'agent.completed');
  assert.is((db.prepare('SELECT pid FROM agent_runs WHERE id = ?').get(res.agentRunId) as { pid: number | null }).pid, null);
});

Remote('remote :: the runner refuses an unapproved workspace; the error keeps its code', async () => {
  try {
    await runAgent({ agent: 'codex', prompt: 'x', cwd: gitRepo(), write: false, runtime: 'direct', sandbox: false, timeoutMs: 20_000, runner: viaRunner() });
    assert.unreachable();
  } catch (e) {
    assert.is((e as { code?: string }).code, 'WORKSPACE_NOT_APPROVED');
  }
});

Remote('remote :: aborting cancels the agent on the host', async () => {
  const repo = await approved();
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 800);
  const marker = `marker-${randomUUID()}`;
  const res = await runAgent({ agent: 'claude', prompt: `${marker} [[fake:sleep=30]]`, cwd: repo, write: false, runtime: 'direct', sandbox: false, timeoutMs: 60_000, runner: viaRunner() }, { signal: ac.signal });
  assert.is(res.status, 'cancelled');
  await waitFor(() => spawnSync('pgrep', ['-f', marker]).status === 1, 10_000, 100, 'host agent gone');
});

Remote.run();
