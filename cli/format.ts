/** Small formatting helpers of the terminal commands. */

/** "90s" → "1m30s"-style text of a millisecond count, for messages. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 ? `${String(s % 60).padStart(2, '0')}s` : ''}`;
  return `${Math.floor(m / 60)}h${m % 60 ? `${String(m % 60).padStart(2, '0')}m` : ''}`;
}
