/**
 * Over a real socket (app.listen on port 0 + fetch), with the server log captured at trace level: the whole
 * sign-in / workflow / catalogue path works end to end, and no secret sent in a body ever shows up in an
 * answer or in the log.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Writable } from 'node:stream';
import { ADMIN, graph, makeApp } from './api-fixture.js';
import { startServer } from '../../server/server.js';
import { testConfig } from '../helpers.js';

const Socket = suite('server/socket');

const API_KEY = 'sk-live-SOCKETTEST-0123456789abcdefXYZ';
const CONN_TOKEN = 'xoxb-SOCKETTEST-slack-token-987654321';

Socket('socket :: sign in, work with workflows and the catalogue, sign out; secrets in no answer and no log line', async () => {
  let log = '';
  const stream = new Writable({ write: (chunk, _e, cb) => ((log += chunk.toString()), cb()) });
  const f = await makeApp({ users: false, logStream: stream });
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = f.app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const answers: string[] = [];
  let sessionToken = '';
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    answers.push(text);
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  };
  try {
    assert.equal((await call('GET', '/api/auth/status')).json, { bootstrapped: false });
    const boot = await call('POST', '/api/auth/bootstrap', ADMIN);
    assert.is(boot.status, 201);
    const login = await call('POST', '/api/auth/login', ADMIN);
    assert.is(login.status, 200);
    const token = login.json.token as string;
    sessionToken = token;

    const wf = await call('POST', '/api/workflows', { name: 'Socket Flow', graph: graph() }, token);
    assert.is(wf.status, 201);
    assert.is((await call('GET', '/api/workflows/socket-flow', undefined, token)).json.id, wf.json.id);
    assert.is((await call('PUT', `/api/workflows/${wf.json.id}`, '{"name": ', token)).status, 400);

    const p = await call('POST', '/api/model-providers', { name: 'hosted', type: 'openai-compatible', base_url: 'https://llm.example.com/v1', api_key: API_KEY }, token);
    assert.is(p.status, 201);
    assert.is(p.json.has_api_key, true);
    // A refused request carrying a key must not echo or log it either.
    const refused = await call('POST', '/api/model-providers', { name: 'hosted', type: 'local', api_key: API_KEY }, token);
    assert.is(refused.status, 409);
    assert.is((await call('PATCH', `/api/model-providers/${p.json.id}`, { api_key: API_KEY, bogus: 1 }, token)).status, 400);
    const c = await call('POST', '/api/connectors', { name: 'chat', type: 'slack', config: { channel: '#ci' }, token: CONN_TOKEN }, token);
    assert.is(c.status, 201);
    const leak = await call('POST', '/api/connectors', { name: 'chat2', type: 'slack', config: { bot_token: CONN_TOKEN } }, token);
    assert.is(leak.status, 422);
    await call('GET', '/api/model-providers', undefined, token);
    await call('GET', '/api/connectors', undefined, token);

    assert.is((await call('POST', '/api/auth/logout', undefined, token)).status, 204);
    assert.is((await call('GET', '/api/auth/me', undefined, token)).status, 401);
  } finally {
    await f.close();
  }
  assert.ok(log.includes('/api/model-providers'), 'the captured log is empty: the check below would prove nothing');
  assert.ok(sessionToken && !log.includes(sessionToken), 'the server log contains a session token');
  for (const secret of [API_KEY, CONN_TOKEN, ADMIN.password]) {
    assert.not.ok(answers.some((a) => a.includes(secret)), `a response contains ${secret}`);
    assert.not.ok(log.includes(secret), `the server log contains ${secret}`);
  }
});

Socket('restart :: a deleted built-in template and skill come back after a real restart; edits survive it', async () => {
  const config = testConfig();
  const quiet = new Writable({ write: (_c, _e, cb) => cb() });
  const json = { 'content-type': 'application/json' };
  let server = await startServer(config, { stdout: quiet });
  let token = '';
  try {
    token = ((await (await fetch(`${server.url}/api/auth/bootstrap`, { method: 'POST', headers: json, body: JSON.stringify(ADMIN) })).json()) as any).token;
    const auth = { authorization: `Bearer ${token}` };
    assert.is((await fetch(`${server.url}/api/workflows/builtin-code-review`, { method: 'DELETE', headers: auth })).status, 204);
    assert.is((await fetch(`${server.url}/api/skills/builtin-code-review`, { method: 'DELETE', headers: auth })).status, 204);
    const edit = await fetch(`${server.url}/api/workflows/builtin-bug-fix`, { method: 'PUT', headers: { ...auth, ...json }, body: JSON.stringify({ description: 'edited before the restart' }) });
    assert.is(edit.status, 200);
  } finally {
    await server.close();
  }
  server = await startServer(config, { stdout: quiet });
  try {
    const auth = { authorization: `Bearer ${token}` };
    assert.is((await fetch(`${server.url}/api/auth/me`, { headers: auth })).status, 200, 'the session survives the restart');
    assert.is((await fetch(`${server.url}/api/workflows/builtin-code-review`, { headers: auth })).status, 200);
    assert.is((await fetch(`${server.url}/api/skills/builtin-code-review`, { headers: auth })).status, 200);
    const bug = (await (await fetch(`${server.url}/api/workflows/builtin-bug-fix`, { headers: auth })).json()) as any;
    assert.is(bug.description, 'edited before the restart');
  } finally {
    await server.close();
  }
});

Socket.run();
