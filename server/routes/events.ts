/**
 * Event streams: SSE per run and global, and the WebSocket at /api/ws. Like every /api route they need
 * `Authorization: Bearer <token>` (the global hook); browsers read SSE through fetch() streaming, which can
 * send the header (EventSource cannot).
 *
 * WebSocket protocol: the client sends `{"type":"subscribe","run_id":"<id>"|"*"}` or
 * `{"type":"unsubscribe","run_id":…}`; the server answers `{"ack":"subscribe","run_id":…}` and then pushes
 * the same messages as SSE's data lines for the subscribed runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { WfError } from '../../core/errors.js';
import { lastEventId } from '../../sql/events.js';
import { getRun } from '../../sql/runs.js';
import { closeAllStreams, eventMessage, EventPump, lastEventIdOf, streamSse } from '../events.js';
import { idParams } from '../schemas.js';

const streamQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { last_event_id: { type: 'integer', minimum: 0 } },
} as const;

export default async function eventRoutes(app: FastifyInstance) {
  const { db, config } = app.services;
  const sockets = new Set<{ close(): void }>();
  app.addHook('onClose', async () => {
    closeAllStreams();
    for (const s of sockets) s.close();
  });

  // A run's stream replays its events from the start unless Last-Event-ID says where to resume.
  app.get<{ Params: { id: string } }>('/api/workflow-runs/:id/events', {
    schema: { params: idParams, querystring: streamQuery },
  }, async (req, reply) => {
    if (!getRun(db, req.params.id)) throw new WfError('RUN_NOT_FOUND', `no run '${req.params.id}'`);
    streamSse(db, req, reply, { fromId: lastEventIdOf(req) ?? 0, runId: req.params.id, pollMs: config.pollIntervalMs });
  });

  // The global stream starts now unless Last-Event-ID says where to resume.
  app.get('/api/events', { schema: { querystring: streamQuery } }, async (req, reply) => {
    streamSse(db, req, reply, { fromId: lastEventIdOf(req) ?? lastEventId(db), pollMs: config.pollIntervalMs });
  });

  await app.register(websocket);
  // A refused upgrade (401) must not leave its socket open: the HTTP server does not own an upgrade socket, so
  // nothing else would end it, and shutdown would wait on it for ever.
  const endRefused = async (req: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode >= 400) req.raw.socket?.end();
  };
  app.get('/api/ws', { websocket: true, schema: { querystring: streamQuery }, onResponse: endRefused }, (socket) => {
    sockets.add(socket);
    const subs = new Set<string>();
    const pump = new EventPump(db, lastEventId(db), (e) => subs.has('*') || (e.run_id !== null && subs.has(e.run_id)), (e) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(eventMessage(e)));
    }, config.pollIntervalMs);
    socket.on('message', (data) => {
      let msg: { type?: string; run_id?: string };
      try {
        msg = JSON.parse(String(data));
      } catch {
        socket.send(JSON.stringify({ error: 'messages must be JSON: {"type":"subscribe","run_id":"<id>"|"*"}' }));
        return;
      }
      if (typeof msg.run_id !== 'string' || (msg.type !== 'subscribe' && msg.type !== 'unsubscribe')) {
        socket.send(JSON.stringify({ error: 'expected {"type":"subscribe"|"unsubscribe","run_id":"<id>"|"*"}' }));
        return;
      }
      if (msg.type === 'unsubscribe') subs.delete(msg.run_id);
      else subs.add(msg.run_id);
      socket.send(JSON.stringify({ ack: msg.type, run_id: msg.run_id }));
      pump.pump();
    });
    socket.on('close', () => {
      sockets.delete(socket);
      pump.close();
    });
  });
}
