/**
 * Reads a run's SSE stream (GET /api/workflow-runs/{id}/events) with fetch, so the bearer token can be sent,
 * and reconnects with Last-Event-ID while the page wants it. Calls onEvent for each parsed event.
 */
import { SseParser, type SseEvent } from '../lib/sse.js';
import { session } from '../state.js';

export class RunStream {
  private abort = new AbortController();
  private stopped = false;
  private lastId: string | undefined;

  constructor(
    private readonly runId: string,
    private readonly onEvent: (e: SseEvent) => void,
  ) {}

  start(): void {
    void this.loop();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.once();
        failures = 0;
      } catch {
        failures++;
      }
      if (this.stopped) return;
      // Back off so a missing or failing stream never hammers the server; polling covers the gap.
      await new Promise((r) => setTimeout(r, Math.min(15_000, 1000 * 2 ** Math.min(failures, 4))));
    }
  }

  private async once(): Promise<void> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    const token = session()?.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.lastId) headers['last-event-id'] = this.lastId;
    const res = await fetch(`/api/workflow-runs/${encodeURIComponent(this.runId)}/events`, { headers, signal: this.abort.signal });
    if (!res.ok || !res.body) throw new Error(`event stream: HTTP ${res.status}`);
    const parser = new SseParser();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const ev of parser.push(value)) {
        if (ev.id) this.lastId = ev.id;
        this.onEvent(ev);
      }
    }
  }
}
