import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listLogs } from '../../../sql/logs.js';
import { latestSteps } from '../../../sql/steps.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from '../../queue/fixture.js';

const Webhook = suite('workers/executors webhook');

async function receiver(status: number, delayMs = 0) {
  const got: Array<{ method: string; headers: http.IncomingHttpHeaders; body: unknown }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      got.push({ method: req.method!, headers: req.headers, body: JSON.parse(body) });
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, got, close: () => new Promise((r) => server.close(r)) };
}

Webhook('post :: JSON with run id, node id, status and the parents\' outputs', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  const rx = await receiver(200);
  try {
    const id = startRun(f, {
      nodes: [node('build', 'build [[fake:answer=BUILD-OK]]'), node('notify', 'tell the team', { url: rx.url, headers: { 'x-token': 'abc' } }, 'webhook')],
      edges: [edge('build', 'notify')],
    });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    assert.is(rx.got.length, 1);
    assert.is(rx.got[0].method, 'POST');
    assert.is(rx.got[0].headers['content-type'], 'application/json');
    assert.is(rx.got[0].headers['x-token'], 'abc');
    assert.equal(rx.got[0].body, { run_id: id, workflow_id: null, workflow_name: 'test workflow', node_id: 'notify', status: 'running', outputs: { build: 'BUILD-OK' } });
    assert.match(latestSteps(f.db, id).get('notify')!.output!, /HTTP 200/);
  } finally {
    await s.stop();
    await rx.close();
  }
});

Webhook('non-2xx :: fails the node and the run', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  const rx = await receiver(503);
  try {
    const id = startRun(f, { nodes: [node('notify', 'tell', { url: rx.url }, 'webhook')], edges: [] });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'failed');
    assert.match(latestSteps(f.db, id).get('notify')!.error!, /HTTP 503/);
    assert.ok(listLogs(f.db, id).some((l) => l.level === 'error' && /run failed: node 'NOTIFY'/.test(l.message)));
  } finally {
    await s.stop();
    await rx.close();
  }
});

Webhook('timeout :: no answer within timeoutMs fails the node', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  const rx = await receiver(200, 2000);
  try {
    const id = startRun(f, { nodes: [node('notify', 'tell', { url: rx.url, timeoutMs: 200 }, 'webhook')], edges: [] });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'failed');
    assert.match(latestSteps(f.db, id).get('notify')!.error!, /no answer within 200 ms/);
  } finally {
    await s.stop();
    await rx.close();
  }
});

Webhook.run();
