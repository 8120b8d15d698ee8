/** Small helpers shared by the adapters' stream parsers. */

/** Parses one JSONL line; undefined when it is not a JSON object. */
export function parseJsonLine(text: string): Record<string, any> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A value as message text: strings as they are, anything else as compact JSON. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && typeof x.text === 'string')) return v.map((x) => x.text).join('\n');
  return JSON.stringify(v);
}

/** The last non-empty lines of stderr, for an error message when the CLI said nothing else. */
export function stderrTail(stderr: string, lines = 3): string {
  return stderr.split('\n').map((l) => l.trim()).filter(Boolean).slice(-lines).join(' | ').slice(0, 2000);
}

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
