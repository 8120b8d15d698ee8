import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runAgent, OUTPUT_CAP_BYTES } from '../../../workers/agents/run.js';
import type { AgentMessage, AgentRequest } from '../../../workers/agents/types.js';
import type { AgentName } from '../../../core/graph.js';
import { FAKE_BIN, gitRepo, pidAlive, tempDir, waitFor } from '../../helpers.js';
import { readFakeLog } from './fakelog.js';
import { writeSecret } from '../../../sql/secrets.js';

process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;

function setup(agent: AgentName, over: Partial<AgentRequest> = {}) {
  const state = tempDir('wfctl-fake-');
  const log = path.join(state, 'log.jsonl');
  const req: AgentRequest = {
    agent, prompt: 'Summarise the repository', cwd: gitRepo(), write: false, runtime: 'direct', sandbox: false, timeoutMs: 20_000,
    env: { WFCTL_FAKE_LOG: log, WFCTL_FAKE_STATE: state }, ...over,
  };
  return { req, log, state };
}

async function go(req: AgentRequest, signal?: AbortSignal) {
  const messages: AgentMessage[] = [];
  let started: { pid: number; command: string[] } | undefined;
  const res = await runAgent(req, { signal, onMessage: (m) => messages.push(m), onStart: (s) => (started = s) });
  return { res, messages, started };
}

// One contract, every adapter: the same cases run against each CLI's fake.
for (const agent of ['claude', 'codex', 'gemini'] as const) {
  const C = suite(`workers/agents/run contract: ${agent}`);

  C(`${agent} :: success gives the answer, streamed messages, session id and usage`, async () => {
    const { req, log } = setup(agent, { prompt: 'Plan it [[fake:answer=the final answer]]', model: 'm-1' });
    const { res, messages, started } = await go(req);
    assert.is(res.status, 'completed', res.error);
    assert.is(res.exitCode, 0);
    assert.is(res.finalText, 'the final answer');
    assert.ok(res.sessionId && res.sessionId.length > 8);
    assert.ok((res.usage.inputTokens ?? 0) > 0 && (res.usage.outputTokens ?? 0) > 0);
    assert.ok(messages.some((m) => m.kind === 'text' && m.content.includes('the final answer')), JSON.stringify(messages));
    assert.equal(messages.map((m) => m.seq), messages.map((_, i) => i + 1));
    assert.is(started?.pid, res.pid);
    assert.ok(res.command.includes(`<prompt: ${req.prompt.length} chars>`), 'the prompt is not stored in the command');
    assert.not.ok(res.command.includes(req.prompt));
    const [inv] = readFakeLog(log);
    assert.is(inv.cwd, req.cwd);
    assert.ok(inv.argv.includes(req.prompt), 'prompt passed as an argument');
    assert.ok(inv.argv.includes('m-1'), 'model flag');
  });

  C(`${agent} :: the CLI's failure signal fails the run with its message`, async () => {
    const { req } = setup(agent, { prompt: 'Do [[fake:fail=quota exhausted]]' });
    const { res } = await go(req);
    assert.is(res.status, 'failed');
    assert.ok(res.error?.includes('quota exhausted'), res.error);
  });

  C(`${agent} :: read-only runs cannot write; write runs write inside the copy`, async () => {
    const ro = setup(agent, { prompt: 'Edit [[fake:write=notes/a.txt:hello]]', write: false });
    assert.is((await go(ro.req)).res.status, 'completed');
    assert.not.ok(existsSync(path.join(ro.req.cwd, 'notes/a.txt')));
    const rw = setup(agent, { prompt: 'Edit [[fake:write=notes/a.txt:hello]]', write: true });
    const { res, messages } = await go(rw.req);
    assert.is(res.status, 'completed', res.error);
    assert.is(readFileSync(path.join(rw.req.cwd, 'notes/a.txt'), 'utf8'), 'hello');
    assert.ok(messages.some((m) => m.kind === 'tool_use') && messages.some((m) => m.kind === 'tool_result'));
  });

  C(`${agent} :: a time-out kills the agent: timed_out`, async () => {
    const { req } = setup(agent, { prompt: 'Wait [[fake:sleep=30]]', timeoutMs: 300 });
    const { res } = await go(req);
    assert.is(res.status, 'timed_out');
    assert.ok(res.pid && !pidAlive(res.pid));
  });

  C(`${agent} :: cancel kills the whole process group, even an agent that ignores SIGTERM`, async () => {
    const { req, log } = setup(agent, { prompt: 'Wait [[fake:spawn-child]][[fake:hang]]' });
    const ac = new AbortController();
    let pid = 0;
    const p = runAgent(req, { signal: ac.signal, onStart: (s) => (pid = s.pid) });
    // Abort once the agent is in its hang: its grandchild exists.
    await waitFor(() => pid && spawnSync('pgrep', ['-P', String(pid), '-x', 'sleep']).status === 0, 10_000, 20, 'grandchild started');
    ac.abort();
    const res = await p;
    assert.is(res.status, 'cancelled');
    const inv = await waitFor(() => readFakeLog(log)[0], 5000, 20, 'fake log line');
    assert.ok(inv.child_pid, 'grandchild started');
    await waitFor(() => !pidAlive(inv.child_pid!) && !pidAlive(inv.pid), 5000, 20, 'agent and grandchild gone');
  });

  C(`${agent} :: an output flood is capped: messages bounded, one note, answer kept`, async () => {
    const { req } = setup(agent, { prompt: 'Talk [[fake:output-mb=6]][[fake:answer=last words]]' });
    const { res, messages } = await go(req);
    assert.is(res.status, 'completed', res.error);
    assert.is(res.truncated, true);
    assert.is(res.finalText, 'last words');
    const kept = messages.reduce((n, m) => n + m.content.length, 0);
    assert.ok(kept <= OUTPUT_CAP_BYTES + 1000, `kept ${kept}`);
    assert.is(messages.filter((m) => m.content.startsWith('output truncated')).length, 1);
  });

  C(`${agent} :: a grandchild left behind after a normal exit is killed`, async () => {
    const { req, log } = setup(agent, { prompt: 'Go [[fake:spawn-child]]' });
    const { res } = await go(req);
    assert.is(res.status, 'completed', res.error);
    const inv = readFakeLog(log)[0];
    await waitFor(() => !pidAlive(inv.child_pid!), 5000, 20, 'grandchild gone');
  });

  C.run();
}

const Claude = suite('workers/agents/run: claude specifics');

Claude('claude :: command line: -p prompt, stream-json --verbose, plan for read-only, acceptEdits for unconfined writes', async () => {
  const ro = setup('claude');
  await go(ro.req);
  assert.equal(readFakeLog(ro.log)[0].argv, ['-p', ro.req.prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'plan']);
  const rw = setup('claude', { write: true });
  await go(rw.req);
  assert.equal(readFakeLog(rw.log)[0].argv.slice(-2), ['--permission-mode', 'acceptEdits']);
});

Claude('claude :: is_error fails the run even when the exit code is 0', async () => {
  const { req } = setup('claude', { prompt: 'x [[fake:fail=overloaded]][[fake:fail-kind=api-exit0]]' });
  const { res } = await go(req);
  assert.is(res.exitCode, 0);
  assert.is(res.status, 'failed');
  assert.match(res.error!, /overloaded.*429/);
});

Claude('claude :: usage and cost come from the result line', async () => {
  const { req } = setup('claude');
  const { res } = await go(req);
  assert.ok((res.usage.costUsd ?? 0) > 0);
  assert.is(res.usage.cachedTokens, 0);
});

Claude('claude :: an anthropic-compatible provider becomes base URL + token in the environment, never argv', async () => {
  const home = tempDir('wfctl-home-');
  mkdirSync(path.join(home, 'secrets'), { recursive: true });
  writeSecret(home, 'provider-p1', 'sk-secret-123');
  const { req, log } = setup('claude', { provider: { id: 'p1', name: 'Local', type: 'anthropic-compatible', baseUrl: 'http://127.0.0.1:11434/v1/', home } });
  const { res } = await go(req);
  assert.is(res.status, 'completed', res.error);
  const inv = readFakeLog(log)[0];
  assert.is(inv.env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:11434');
  assert.is(inv.env.ANTHROPIC_AUTH_TOKEN, 'sk-secret-123');
  assert.not.ok(JSON.stringify(inv.argv).includes('sk-secret'));
  assert.not.ok(JSON.stringify(res.command).includes('sk-secret'));
});

Claude.run();

const Codex = suite('workers/agents/run: codex specifics');

Codex('codex :: exec --json, -s read-only / workspace-write, --skip-git-repo-check only outside git', async () => {
  const ro = setup('codex');
  await go(ro.req);
  assert.equal(readFakeLog(ro.log)[0].argv, ['exec', '--json', '-s', 'read-only', '--', ro.req.prompt]);
  const plain = setup('codex', { cwd: tempDir(), write: true });
  const { res } = await go(plain.req);
  assert.is(res.status, 'completed', res.error);
  assert.equal(readFakeLog(plain.log)[0].argv, ['exec', '--json', '-s', 'workspace-write', '--skip-git-repo-check', '--', plain.req.prompt]);
});

Codex('codex :: a startup error on stderr (exit 1, no events) fails with its text', async () => {
  const { req } = setup('codex', { prompt: 'x [[fake:fail]][[fake:fail-kind=startup]]' });
  const { res } = await go(req);
  assert.is(res.status, 'failed');
  assert.is(res.exitCode, 1);
  assert.match(res.error!, /ERROR: failed to start/);
});

Codex('codex :: an openai-compatible provider becomes -c provider settings with the key in env only', async () => {
  const home = tempDir('wfctl-home-');
  mkdirSync(path.join(home, 'secrets'), { recursive: true });
  writeSecret(home, 'provider-p2', 'sk-openai-456');
  const { req, log } = setup('codex', { provider: { id: 'p2', name: 'vLLM', type: 'openai-compatible', baseUrl: 'http://127.0.0.1:8000/v1', home } });
  const { res } = await go(req);
  assert.is(res.status, 'completed', res.error);
  const inv = readFakeLog(log)[0];
  assert.ok(inv.argv.includes('model_provider="wfctl"'));
  assert.ok(inv.argv.includes('model_providers.wfctl.base_url="http://127.0.0.1:8000/v1"'));
  assert.ok(inv.argv.includes('model_providers.wfctl.env_key="WFCTL_PROVIDER_API_KEY"'));
  assert.is(inv.env.WFCTL_PROVIDER_API_KEY, 'sk-openai-456');
  assert.not.ok(JSON.stringify(inv.argv).includes('sk-openai'));
});

Codex.run();

const Gemini = suite('workers/agents/run: gemini specifics');

Gemini('gemini :: -p prompt -o stream-json --skip-trust, plan / auto_edit', async () => {
  const ro = setup('gemini');
  await go(ro.req);
  assert.equal(readFakeLog(ro.log)[0].argv, ['-p', ro.req.prompt, '-o', 'stream-json', '--skip-trust', '--approval-mode', 'plan']);
  const rw = setup('gemini', { write: true, model: 'flash' });
  await go(rw.req);
  assert.equal(readFakeLog(rw.log)[0].argv.slice(-4), ['--approval-mode', 'auto_edit', '-m', 'flash']);
});

Gemini('gemini :: a fatal JSON error on stderr and its exit code fail the run', async () => {
  const { req } = setup('gemini', { prompt: 'x [[fake:fail]][[fake:fail-kind=auth]]' });
  const { res } = await go(req);
  assert.is(res.status, 'failed');
  assert.is(res.exitCode, 41);
  assert.match(res.error!, /Auth method.*exit 41: authentication failed/);
});

Gemini('gemini :: turn-limit result error exits 53', async () => {
  const { req } = setup('gemini', { prompt: 'x [[fake:fail=too many turns]][[fake:fail-kind=turn-limit]]' });
  const { res } = await go(req);
  assert.is(res.exitCode, 53);
  assert.match(res.error!, /too many turns.*turn limit/);
});

Gemini.run();

const Missing = suite('workers/agents/run: refusals');

Missing('refusals :: a missing CLI is AGENT_NOT_FOUND naming the override variable', async () => {
  const { req } = setup('claude');
  const saved = process.env.WFCTL_CLAUDE_BIN;
  process.env.WFCTL_CLAUDE_BIN = '/nonexistent/claude';
  try {
    await runAgent(req);
    assert.unreachable();
  } catch (e) {
    assert.is((e as { code?: string }).code, 'AGENT_NOT_FOUND');
    assert.match((e as Error).message, /WFCTL_CLAUDE_BIN/);
  } finally {
    if (saved === undefined) delete process.env.WFCTL_CLAUDE_BIN;
    else process.env.WFCTL_CLAUDE_BIN = saved;
  }
});

Missing.run();
