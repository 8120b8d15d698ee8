/** ISO 8601 UTC timestamps, the one time format stored and served. */
export function nowIso(at: number = Date.now()): string {
  return new Date(at).toISOString();
}

export function addMs(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** Parses durations like `90s`, `15m`, `2h`, `1h30m`, `500ms` or a bare number of seconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  while ((m = re.exec(t))) {
    total += Number(m[1]) * unit[m[2]];
    consumed = re.lastIndex;
  }
  if (consumed === 0 || consumed !== t.length) return undefined;
  return Math.round(total);
}
