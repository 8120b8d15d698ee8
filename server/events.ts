/**
 * Streaming run_events (design §8): Server-Sent Events with `id:` = the row id so Last-Event-ID resumes, and a
 * pump shared with the WebSocket. Rows are read by polling run_events (so events written by other processes,
 * e.g. `wfctl run`, stream too), woken at once by this process's own writes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../sql/db.js';
import { eventBus, eventsAfter, type RunEvent } from '../sql/events.js';
import { WfError } from '../core/errors.js';

/** Comment line sent this often so proxies keep an idle stream open. */
export const KEEPALIVE_MS = 15_000;

/** The wire form of one event (SSE data and WebSocket message alike). */
export function eventMessage(e: RunEvent): Record<string, unknown> {
  return { id: e.id, run_id: e.run_id, type: e.type, payload: e.payload, created_at: e.created_at };
}

export function formatSse(e: RunEvent): string {
  return `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(eventMessage(e))}\n\n`;
}

/** A cursor over run_events that delivers each row once, in id order. */
export class EventPump {
  private closed = false;
  private pumping = false;
  private readonly poll: NodeJS.Timeout;
  private readonly onBus = () => this.pump();

  constructor(
    private readonly db: DB,
    private last: number,
    private readonly accept: (e: RunEvent) => boolean,
    private readonly send: (e: RunEvent) => void,
    pollMs: number,
    private readonly runId?: string,
  ) {
    eventBus.on('event', this.onBus);
    this.poll = setInterval(this.onBus, pollMs);
    setImmediate(this.onBus);
  }

  get lastId(): number {
    return this.last;
  }

  pump(): void {
    if (this.closed || this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const batch = eventsAfter(this.db, this.last, this.runId, 500);
        for (const e of batch) {
          this.last = e.id;
          if (this.accept(e)) this.send(e);
        }
        if (batch.length < 500 || this.closed) break;
      }
    } catch {
      /* busy or closing database: the next tick reads again */
    } finally {
      this.pumping = false;
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.poll);
    eventBus.off('event', this.onBus);
  }
}

const open = new Set<() => void>();

/** Ends every open stream (the app's onClose hook), so shutdown does not wait on idle-less SSE sockets. */
export function closeAllStreams(): void {
  for (const end of [...open]) end();
}

/** Streams events after `fromId` (optionally of one run) as SSE until the client goes away. */
export function streamSse(db: DB, req: FastifyRequest, reply: FastifyReply, opts: { fromId: number; runId?: string; pollMs: number }): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write('retry: 2000\n\n');
  const pump = new EventPump(db, opts.fromId, () => true, (e) => raw.write(formatSse(e)), opts.pollMs, opts.runId);
  const ka = setInterval(() => raw.write(': keep-alive\n\n'), KEEPALIVE_MS);
  const end = () => {
    if (!open.delete(end)) return;
    pump.close();
    clearInterval(ka);
    raw.end();
  };
  open.add(end);
  req.raw.on('close', end);
}

/** Last-Event-ID header, else ?last_event_id=, else undefined. */
export function lastEventIdOf(req: FastifyRequest): number | undefined {
  const h = req.headers['last-event-id'];
  const q = (req.query as { last_event_id?: string | number } | undefined)?.last_event_id;
  const raw = (Array.isArray(h) ? h[0] : h) ?? (q !== undefined ? String(q) : undefined);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new WfError('BAD_REQUEST', `Last-Event-ID must be a whole number, got '${raw}'`);
  return n;
}
