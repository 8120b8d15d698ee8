import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Api, ApiError } from '../../web-components/src/lib/api.js';
import { SseParser } from '../../web-components/src/lib/sse.js';
import { clearSession, loadSession, saveSession, type KeyValueStore } from '../../web-components/src/lib/session.js';
import { addMessages, agentMessageFrom, triggersRefresh } from '../../web-components/src/lib/run-events.js';

function memStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const Client = suite('web/client');

Client('api :: sends the bearer token and JSON, and parses the answer', async () => {
  const seen: Array<{ url: string; init: RequestInit }> = [];
  const api = new Api({
    fetch: (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(JSON.stringify({ ok: 1 }), { status: 200 });
    }) as unknown as typeof fetch,
    token: () => 'tok123',
  });
  assert.equal(await api.post('/api/x', { a: 1 }), { ok: 1 });
  const h = seen[0]!.init.headers as Record<string, string>;
  assert.is(h.authorization, 'Bearer tok123');
  assert.is(h['content-type'], 'application/json');
  assert.is(seen[0]!.init.body, '{"a":1}');
});

Client('api :: an error body becomes an ApiError with code and details; 401 calls onUnauthorized', async () => {
  let unauthorized = 0;
  const bodies: Record<string, [number, unknown]> = {
    '/api/bad': [422, { statusCode: 422, code: 'GRAPH_INVALID', error: 'Unprocessable Entity', message: 'graph invalid', details: { problems: [{ node_id: 'a', message: 'm' }] } }],
    '/api/auth': [401, { statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'sign in first' }],
    '/api/empty': [204, undefined],
  };
  const api = new Api({
    fetch: (async (url: string) => {
      const [status, body] = bodies[url]!;
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }) as unknown as typeof fetch,
    token: () => null,
    onUnauthorized: () => unauthorized++,
  });
  try {
    await api.put('/api/bad', {});
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ApiError);
    assert.is((e as ApiError).status, 422);
    assert.is((e as ApiError).code, 'GRAPH_INVALID');
    assert.equal((e as ApiError).details, { problems: [{ node_id: 'a', message: 'm' }] });
  }
  await api.get('/api/auth').catch((e) => assert.is((e as ApiError).code, 'UNAUTHORIZED'));
  assert.is(unauthorized, 1);
  assert.is(await api.del('/api/empty'), undefined);
});

Client('session :: stored, read back, cleared; a corrupt entry reads as signed out', () => {
  const s = memStore();
  assert.is(loadSession(s), null);
  saveSession(s, { token: 't', user: { id: 'u', username: 'ana', role: 'admin' } });
  assert.equal(loadSession(s), { token: 't', user: { id: 'u', username: 'ana', role: 'admin' } });
  s.setItem('wfctl.user', '{nope');
  assert.is(loadSession(s), null);
  clearSession(s);
  assert.is(s.data.size, 0);
});

Client('sse :: events split across chunks, CRLF, comments, ids and multi-line data', () => {
  const p = new SseParser();
  assert.equal(p.push(': keep-alive\n\nid: 7\nevent: run.st'), []);
  const evs = p.push('atus\ndata: {"a":\ndata: 1}\r\n\r\nevent: log\ndata: x\n\n');
  assert.equal(evs, [
    { id: '7', event: 'run.status', data: '{"a":\n1}' },
    { event: 'log', data: 'x' },
  ]);
  assert.is(p.lastId, '7');
  assert.equal(p.push('data: plain\n\n'), [{ event: 'message', data: 'plain' }]);
});

Client('run events :: agent messages are read from either payload shape and deduplicated', () => {
  const a = agentMessageFrom({ node_id: 'n1', kind: 'text', content: 'hello', seq: 1 }, '10')!;
  const b = agentMessageFrom({ run_id: 'r', node_id: 'n1', message: { kind: 'tool_use', content: { tool: 'ls' }, seq: 2 } }, '11')!;
  assert.equal([a.nodeId, a.kind, a.content], ['n1', 'text', 'hello']);
  assert.equal([b.kind, b.content], ['tool_use', '{"tool":"ls"}']);
  assert.is(agentMessageFrom({ kind: 'text' }), undefined);
  const wrapped = agentMessageFrom({ id: 42, run_id: 'r', type: 'agent.message', payload: { node_id: 'n2', seq: 3, kind: 'result', content: 'done' }, created_at: 't' })!;
  assert.equal([wrapped.key, wrapped.nodeId, wrapped.kind, wrapped.content], ['42', 'n2', 'result', 'done']);
  const m = addMessages(addMessages(new Map(), [a, b]), [a]);
  assert.is(m.get('n1')!.length, 2);
  assert.ok(triggersRefresh('run.status') && triggersRefresh('approval.required'));
  assert.not.ok(triggersRefresh('agent.message'));
});

Client.run();
