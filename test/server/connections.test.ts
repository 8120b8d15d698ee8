/**
 * server/connections.ts with a real HTTP server and real sockets: at the stop, a spare connection that carried
 * no request is closed at once, a connection with a request in flight keeps it to the end of its response (which
 * arrives whole) and is then closed, and an upgraded socket is left alone.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { trackConnections } from '../../server/connections.js';
import { waitFor } from '../helpers.js';

const Connections = suite('server/connections');

/** `p`, or a failure naming `what` if it has not settled after `ms` (a hang must fail, not stall the suite). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not after ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  const tracker = trackConnections(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const closed = new Promise<void>((r) => server.on('close', r));
  return { server, tracker, port, closed };
}

function rawSocket(port: number): Promise<{ socket: net.Socket; data: () => string; ended: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('error', () => {});
    const ended = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('connect', () => resolve({ socket, data: () => data, ended }));
  });
}

Connections('a connection that never sent a request is closed at the stop; server.close() then completes', async () => {
  const s = await serve((_req, res) => res.end('ok'));
  const spare = await rawSocket(s.port);
  await waitFor(() => s.tracker.size === 1, 5000, 10, 'the server saw the connection');
  s.server.close();
  s.tracker.closeIdle();
  await within(spare.ended, 5000, 'the spare connection closed');
  await within(s.closed, 5000, 'server.close() completed');
  assert.is(s.tracker.size, 0);
  assert.is(spare.data(), '', 'nothing was sent on it');
});

Connections('a request in flight at the stop gets its whole response, then its keep-alive connection is closed', async () => {
  let finish!: () => void;
  const s = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first half,');
    finish = () => res.end(' second half');
  });
  const c = await rawSocket(s.port);
  c.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  await waitFor(() => c.data().includes('first half'), 5000, 10, 'response started');
  s.server.close();
  s.tracker.closeIdle();
  await new Promise((r) => setTimeout(r, 100));
  assert.is(c.socket.destroyed, false, 'kept open while its response is in flight');
  finish();
  await within(c.ended, 5000, 'the connection closed after its response');
  await within(s.closed, 5000, 'server.close() completed');
  assert.match(c.data(), /first half,/);
  assert.match(c.data(), /second half/);
  assert.match(c.data(), /\r\n0\r\n\r\n$/, 'the chunked body ended properly');
});

Connections('an upgraded socket is not touched by the stop', async () => {
  const s = await serve((_req, res) => res.end('ok'));
  s.server.on('upgrade', (_req, socket: net.Socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
  });
  const c = await rawSocket(s.port);
  c.socket.write('GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
  await waitFor(() => c.data().includes('101'), 5000, 10, 'upgraded');
  s.tracker.closeIdle();
  await new Promise((r) => setTimeout(r, 100));
  assert.is(c.socket.destroyed, false);
  c.socket.destroy();
  await within(c.ended, 5000, 'client socket closed');
  s.server.close();
});

Connections.run();
