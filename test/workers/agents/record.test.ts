import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { runRecordedAgent } from '../../../workers/agents/record.js';
import type { AgentRequest } from '../../../workers/agents/types.js';
import type { DB } from '../../../sql/db.js';
import { FAKE_BIN, gitRepo, testDb } from '../../helpers.js';

process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;

const Record = suite('workers/agents/record');

function insertRun(db: DB): string {
  const id = randomUUID();
  db.prepare("INSERT INTO workflow_runs (id, workflow_name, workspace_path, graph) VALUES (?, 'wf', '/tmp', '{\"nodes\":[],\"edges\":[]}')").run(id);
  return id;
}

const req = (over: Partial<AgentRequest> = {}): AgentRequest => ({
  agent: 'claude', prompt: 'Review [[fake:answer=looks good]]', cwd: gitRepo(), write: false, runtime: 'direct', sandbox: false, timeoutMs: 20_000, model: 'sonnet', ...over,
});

Record('record :: agent_runs row, messages and agent.* events for a workflow run', async () => {
  const { db } = testDb();
  const runId = insertRun(db);
  const res = await runRecordedAgent(db, { runId, stepRunId: null, nodeId: 'n1' }, req());
  assert.is(res.status, 'completed');
  const row = db.prepare('SELECT * FROM agent_runs WHERE id = ?').get(res.agentRunId) as any;
  assert.is(row.status, 'completed');
  assert.is(row.exit_code, 0);
  assert.is(row.final_output, 'looks good');
  assert.is(row.model, 'sonnet');
  assert.is(row.node_id, 'n1');
  assert.ok(row.duration_ms >= 0 && row.pid > 0);
  assert.ok(row.input_tokens > 0 && row.output_tokens > 0 && row.cost_usd > 0);
  const command = JSON.parse(row.command);
  assert.ok(command.some((a: string) => a.startsWith('<prompt: ')));
  assert.ok(row.session_id);
  const msgs = db.prepare('SELECT * FROM agent_messages WHERE agent_run_id = ? ORDER BY seq').all(res.agentRunId) as any[];
  assert.ok(msgs.length >= 3);
  assert.ok(msgs.every((m) => m.run_id === runId && m.node_id === 'n1'));
  const events = db.prepare('SELECT type, payload FROM run_events WHERE run_id = ? ORDER BY id').all(runId) as any[];
  assert.is(events[0].type, 'agent.started');
  assert.is(events[events.length - 1].type, 'agent.completed');
  assert.is(events.filter((e) => e.type === 'agent.message').length, msgs.length);
  const first = JSON.parse(events[1].payload);
  assert.is(first.node_id, 'n1');
  assert.is(first.agent_run_id, res.agentRunId);
  assert.is(JSON.parse(events[events.length - 1].payload).status, 'completed');
});

Record('record :: a planning run (no workflow run) stores messages without events', async () => {
  const { db } = testDb();
  const res = await runRecordedAgent(db, { runId: null, stepRunId: null, nodeId: null }, req({ agent: 'codex' }));
  assert.is(res.status, 'completed', res.error);
  assert.ok((db.prepare('SELECT COUNT(*) AS n FROM agent_messages WHERE agent_run_id = ?').get(res.agentRunId) as any).n > 0);
  assert.is((db.prepare('SELECT COUNT(*) AS n FROM run_events').get() as any).n, 0);
});

Record('record :: a failure is recorded with its error and exit code', async () => {
  const { db } = testDb();
  const runId = insertRun(db);
  const res = await runRecordedAgent(db, { runId, stepRunId: null, nodeId: 'n2' }, req({ agent: 'gemini', prompt: 'x [[fake:fail=model unavailable]]' }));
  const row = db.prepare('SELECT status, error, exit_code FROM agent_runs WHERE id = ?').get(res.agentRunId) as any;
  assert.equal({ status: row.status, exit: row.exit_code }, { status: 'failed', exit: 1 });
  assert.match(row.error, /model unavailable/);
});

Record('record :: a refusal before start still leaves a failed agent_runs row', async () => {
  const { db } = testDb();
  process.env.WFCTL_CODEX_BIN = '/nonexistent/codex';
  try {
    await runRecordedAgent(db, { runId: null, stepRunId: null, nodeId: 'n3' }, req({ agent: 'codex' }));
    assert.unreachable();
  } catch (e) {
    assert.is((e as { code?: string }).code, 'AGENT_NOT_FOUND');
  } finally {
    delete process.env.WFCTL_CODEX_BIN;
  }
  const row = db.prepare("SELECT status, error FROM agent_runs WHERE node_id = 'n3'").get() as any;
  assert.is(row.status, 'failed');
  assert.match(row.error, /not found/);
});

Record('record :: a 50 MB flood is stored bounded and marked truncated', async () => {
  const { db } = testDb();
  const runId = insertRun(db);
  const res = await runRecordedAgent(db, { runId, stepRunId: null, nodeId: 'n4' }, req({ prompt: 'x [[fake:output-mb=50]][[fake:answer=ok]]' }));
  assert.is(res.status, 'completed', res.error);
  assert.is(res.finalText, 'ok');
  const stored = db.prepare('SELECT COUNT(*) AS n, SUM(length(content)) AS bytes FROM agent_messages WHERE agent_run_id = ?').get(res.agentRunId) as any;
  assert.ok(stored.bytes <= 4 * 1024 * 1024 + 1000, `stored ${stored.bytes}`);
  assert.is((db.prepare('SELECT truncated FROM agent_runs WHERE id = ?').get(res.agentRunId) as any).truncated, 1);
});

Record.run();
