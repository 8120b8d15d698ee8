import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { repoFingerprint } from '../workers/fingerprint.js';
import path from 'node:path';
import { makeApp } from './api-fixture.js';
import { buildRunnerApp, runnerSecret } from '../../server/routes/runtimes.js';
import { approveWorkspace, prepareWorkingCopy } from '../../workers/workspace.js';
import { FAKE_BIN, gitRepo, tempDir, testDb } from '../helpers.js';
import { saveProvider } from '../../sql/catalogue.js';
import { readFakeLog } from '../workers/agents/fakelog.js';

process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
const R = suite('server/runtimes');

R('runtimes :: direct-cli runs the agent in an approved workspace and answers output, messages and usage', async () => {
  const f = await makeApp();
  const repo = gitRepo();
  approveWorkspace(f.db, repo);
  const res = await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'codex', prompt: 'Plan [[fake:answer={"nodes":[]}]]', workspace_path: repo, sandbox: false, timeout_s: 30 } });
  assert.is(res.statusCode, 200, res.body);
  const b = res.json();
  assert.equal([b.status, b.exit_code, b.output], ['completed', 0, '{"nodes":[]}']);
  assert.ok(b.messages.length > 0 && b.usage.outputTokens > 0);
  // An approved workspace is worked on in a throw-away copy: a write run leaves the checkout untouched.
  const before = repoFingerprint(repo);
  const w = await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'claude', prompt: 'Edit [[fake:write=new.txt:x]]', workspace_path: repo, write: true } });
  assert.is(w.json().status, 'completed', w.body);
  assert.equal(repoFingerprint(repo), before);
  assert.equal(readdirSync(path.join(f.config.home, 'artifacts', 'runs')), [], 'the throw-away copy is removed');
  await f.close();
});

R('runtimes :: an unapproved workspace is refused before anything starts', async () => {
  const f = await makeApp();
  const res = await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'claude', prompt: 'x', workspace_path: gitRepo() } });
  assert.equal([res.statusCode, res.json().code], [422, 'WORKSPACE_NOT_APPROVED']);
  assert.is((await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', payload: { agent: 'claude', prompt: 'x', workspace_path: '/tmp' } })).statusCode, 401);
  assert.is((await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'nope', prompt: 'x', workspace_path: '/tmp' } })).statusCode, 400);
  await f.close();
});

R('runtimes :: a run working copy is accepted; a confined write run writes inside it', async () => {
  const f = await makeApp();
  const copy = await prepareWorkingCopy(f.config, 'r-1', gitRepo());
  const res = await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'claude', prompt: 'Edit [[fake:write=x.txt:1]]', workspace_path: copy, write: true } });
  assert.is(res.json().status, 'completed', res.body);
  assert.is(readFileSync(path.join(copy, 'x.txt'), 'utf8'), '1');
  await f.close();
});

R('runtimes :: the first configured provider fitting the agent reaches its environment; a named misfit is 422', async () => {
  const f = await makeApp();
  const repo = gitRepo();
  approveWorkspace(f.db, repo);
  saveProvider(f.db, f.config.home, undefined, { name: 'gateway', type: 'anthropic-compatible', base_url: 'http://127.0.0.1:9/', api_key: 'sk-gw' });
  const local = saveProvider(f.db, f.config.home, undefined, { name: 'ollama', type: 'local', base_url: 'http://127.0.0.1:11434/v1' });
  const log = path.join(tempDir(), 'fake.jsonl');
  process.env.WFCTL_FAKE_LOG = log;
  try {
    const res = await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'claude', prompt: 'x', workspace_path: repo, sandbox: false } });
    assert.is(res.json().status, 'completed', res.body);
    const inv = readFakeLog(log)[0];
    assert.equal([inv.env.ANTHROPIC_BASE_URL, inv.env.ANTHROPIC_AUTH_TOKEN], ['http://127.0.0.1:9', 'sk-gw']);
    const bad = await f.req({ method: 'POST', url: '/api/runtimes/direct-cli/run', token: f.operatorToken, payload: { agent: 'claude', prompt: 'x', workspace_path: repo, provider: local.id } });
    assert.is(bad.statusCode, 422);
  } finally {
    delete process.env.WFCTL_FAKE_LOG;
    await f.close();
  }
});

R('runner :: `wfctl runner` app: shared secret as Bearer, created once; wrong secret 401', async () => {
  const { db, config } = testDb();
  const secret = runnerSecret(config);
  assert.is(runnerSecret(config), secret);
  assert.ok(existsSync(path.join(config.home, 'secrets', 'runner')));
  const app = await buildRunnerApp(db, config, secret);
  const repo = gitRepo();
  approveWorkspace(db, repo);
  const payload = { agent: 'gemini', prompt: 'Hi [[fake:answer=hello]]', workspace_path: repo, sandbox: false };
  assert.is((await app.inject({ method: 'POST', url: '/api/runtimes/direct-cli/run', payload })).statusCode, 401);
  assert.is((await app.inject({ method: 'POST', url: '/api/runtimes/direct-cli/run', payload, headers: { authorization: 'Bearer wrong' } })).statusCode, 401);
  const ok = await app.inject({ method: 'POST', url: '/api/runtimes/direct-cli/run', payload, headers: { authorization: `Bearer ${secret}` } });
  assert.equal([ok.statusCode, ok.json().output], [200, 'hello']);
  await app.close();
});

R.run();
