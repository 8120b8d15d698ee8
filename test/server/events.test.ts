import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { exited, ROOT, spawnTracked, waitFor } from '../helpers.js';
import { edge, node } from '../queue/fixture.js';
import { runApi, type RunApiFixture } from './run-fixture.js';

interface Sse {
  events: Array<{ id: number; event: string; data: any }>;
  close(): void;
}

/** Opens an SSE stream over a real socket and collects its events. */
function sse(base: string, url: string, token: string, lastEventId?: number): Promise<Sse> {
  return new Promise((resolve, reject) => {
    const events: Sse['events'] = [];
    const req = http.get(base + url, { headers: { authorization: `Bearer ${token}`, ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}) } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE ${res.statusCode}`));
      assert.match(String(res.headers['content-type']), /text\/event-stream/);
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const fields = Object.fromEntries(block.split('\n').filter((l) => l && !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
          if (fields.id) events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data) });
        }
      });
      resolve({ events, close: () => req.destroy() });
    });
    req.on('error', () => undefined);
  });
}

async function listening(f: RunApiFixture): Promise<string> {
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(f.app.server.address() as AddressInfo).port}`;
}

const Stream = suite('server/events');

Stream('sse :: a run\'s stream carries status, node, log and agent events with id = run_events.id; Last-Event-ID resumes', async () => {
  const f = await runApi();
  try {
    const base = await listening(f);
    await f.workflow('Streamed', { nodes: [node('a', 'a'), node('b', 'b')], edges: [edge('a', 'b')] });
    const runId = (await f.start('Streamed')).json().run_id;
    const s = await sse(base, `/api/workflow-runs/${runId}/events`, f.operatorToken);
    await waitFor(() => s.events.find((e) => e.event === 'run.status' && e.data.payload.status === 'completed'), 20_000, 20, 'completed event');
    s.close();
    const types = new Set(s.events.map((e) => e.event));
    for (const t of ['run.status', 'node.status', 'log', 'agent.started', 'agent.completed']) assert.ok(types.has(t), `has ${t}`);
    assert.ok(s.events.every((e, i) => i === 0 || e.id > s.events[i - 1].id), 'ids increase');
    assert.ok(s.events.every((e) => e.data.run_id === runId && e.data.id === e.id));
    const dbIds = f.db.prepare('SELECT id FROM run_events WHERE run_id = ? ORDER BY id').pluck().all(runId);
    assert.equal(s.events.map((e) => e.id), dbIds, 'every row, once, in order');
    const mid = s.events[Math.floor(s.events.length / 2)].id;
    const resumed = await sse(base, `/api/workflow-runs/${runId}/events`, f.operatorToken, mid);
    await waitFor(() => resumed.events.length === dbIds.filter((id) => (id as number) > mid).length, 5000);
    resumed.close();
    assert.ok(resumed.events.every((e) => e.id > mid));
    assert.is((await f.req({ url: '/api/workflow-runs/nope/events', token: f.operatorToken })).statusCode, 404);
    assert.is((await f.req({ url: `/api/workflow-runs/${runId}/events` })).statusCode, 401);
  } finally {
    await f.close();
  }
});

Stream('sse :: the global stream shows events written by another process (a `wfctl run` writes the same table)', async () => {
  const f = await runApi({ scheduler: false });
  try {
    const base = await listening(f);
    await f.workflow('Other', { nodes: [node('a')], edges: [] });
    const runId = (await f.start('Other')).json().run_id;
    const s = await sse(base, '/api/events', f.operatorToken);
    await new Promise((r) => setTimeout(r, 100));
    const script = `
      import { openDatabase } from ${JSON.stringify(path.join(ROOT, 'dist/sql/db.js'))};
      import { appendLog } from ${JSON.stringify(path.join(ROOT, 'dist/sql/logs.js'))};
      const db = openDatabase({ home: process.env.H, dbPath: process.env.D, busyTimeoutMs: 5000 });
      appendLog(db, process.env.R, 'info', 'hello from another process');
      db.close();
    `;
    const child = spawnTracked(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, H: f.config.home, D: f.config.dbPath, R: runId } });
    await exited(child);
    const got = await waitFor(() => s.events.find((e) => e.event === 'log' && e.data.payload.message === 'hello from another process'), 5000);
    assert.is(got.data.run_id, runId);
    assert.not.ok(s.events.some((e) => e.data.type === 'run.status' && e.data.payload.status === 'queued'), 'the global stream starts now');
    s.close();
  } finally {
    await f.close();
  }
});

Stream('websocket :: /api/ws pushes the subscribed run\'s events; needs a token', async () => {
  const f = await runApi();
  try {
    const base = (await listening(f)).replace('http', 'ws');
    // A refused upgrade answers 401 and its socket is ended (otherwise the app's close below would never finish).
    const refused = new WebSocket(`${base}/api/ws`);
    refused.on('error', () => undefined);
    const code = await new Promise<number>((resolve) => refused.on('unexpected-response', (_req, res) => resolve(res.statusCode!)));
    assert.is(code, 401);
    await f.workflow('Pushed', { nodes: [node('a', 'a [[fake:sleep=0.3]]')], edges: [] });
    const ws = new WebSocket(`${base}/api/ws`, { headers: { authorization: `Bearer ${f.operatorToken}` } });
    const msgs: any[] = [];
    ws.on('message', (d) => msgs.push(JSON.parse(String(d))));
    await new Promise((r) => ws.on('open', r));
    ws.send('not json');
    const runId = (await f.start('Pushed')).json().run_id;
    ws.send(JSON.stringify({ type: 'subscribe', run_id: runId }));
    await waitFor(() => msgs.find((m) => m.type === 'run.status' && m.payload.status === 'completed'), 20_000, 20, 'completed over ws');
    assert.ok(msgs.some((m) => m.error), 'a malformed message gets an error answer');
    assert.ok(msgs.some((m) => m.ack === 'subscribe' && m.run_id === runId));
    assert.ok(msgs.filter((m) => m.type).every((m) => m.run_id === runId && typeof m.id === 'number'));
    assert.ok(msgs.some((m) => m.type === 'agent.started'));
    const closed = new Promise((r) => ws.on('close', r));
    ws.close();
    await closed;
  } finally {
    await f.close();
  }
});

Stream.run();
