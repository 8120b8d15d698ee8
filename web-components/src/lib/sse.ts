/**
 * A server-sent events parser. EventSource cannot send an Authorization header, so the run page reads the
 * stream with fetch and feeds the text chunks here (the WHATWG event-stream format: `event:`, `data:`, `id:`,
 * blank line ends an event, `:` lines are comments).
 */

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export class SseParser {
  private buf = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  /** Last id seen, for Last-Event-ID on reconnect. */
  lastId: string | undefined;

  /** Feeds a chunk; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buf += chunk;
    const out: SseEvent[] = [];
    let nl: number;
    while ((nl = this.buf.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buf.slice(0, nl);
      const sepLen = this.buf.startsWith('\r\n', nl) ? 2 : 1;
      this.buf = this.buf.slice(nl + sepLen);
      if (line === '') {
        if (this.data.length) {
          out.push({ event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) });
        }
        if (this.id !== undefined) this.lastId = this.id;
        this.data = [];
        this.event = '';
        this.id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id') this.id = value;
    }
    return out;
  }
}
