/**
 * Connection bookkeeping for a graceful stop of `wfctl serve` and `wfctl runner`. Node's server.close() (and
 * fastify's default `forceCloseConnections: 'idle'`) leaves alone a connection on which no request has arrived
 * yet: browsers and HTTP clients open such spare connections ahead of need and keep them for minutes, and each
 * one held the process open after SIGTERM until the client let go. Here every socket is counted with its
 * requests in flight: at the stop, sockets with none are closed at once, and each other socket as soon as its
 * last response is done. Upgraded sockets (WebSocket) are left to their own close handling.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionTracker {
  /** Closes every socket without a request in flight now, and every other one once its responses are done. */
  closeIdle(): void;
  /** Sockets open now (tests and diagnostics). */
  readonly size: number;
}

export function trackConnections(server: Server): ConnectionTracker {
  const inFlight = new Map<Socket, number>();
  let stopping = false;
  // After a response: end() sends what is still buffered, then FIN; a client that never closes its side is cut
  // off a second later. A socket that carried nothing yet has nothing to send: destroyed at once.
  const release = (s: Socket) => {
    s.end();
    setTimeout(() => s.destroy(), 1000).unref();
  };
  server.on('connection', (s: Socket) => {
    if (stopping) return void s.destroy();
    inFlight.set(s, 0);
    s.once('close', () => inFlight.delete(s));
  });
  server.on('request', (req, res) => {
    const s = req.socket;
    if (!inFlight.has(s)) return;
    inFlight.set(s, inFlight.get(s)! + 1);
    res.once('close', () => {
      if (!inFlight.has(s)) return;
      const n = inFlight.get(s)! - 1;
      inFlight.set(s, n);
      if (stopping && n === 0) release(s);
    });
  });
  server.on('upgrade', (req) => inFlight.delete(req.socket));
  return {
    closeIdle() {
      stopping = true;
      for (const [s, n] of inFlight) if (n === 0) s.destroy();
    },
    get size() {
      return inFlight.size;
    },
  };
}
