/** Option values shared by commands, checked the same way everywhere. */
import { UsageError } from 'clipanion';
import { parseDuration } from '../core/time.js';

/** `--timeout <duration>` in ms (undefined when not given); a value that is not a positive duration is a usage error. */
export function timeoutMsOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (!ms || ms <= 0) throw new UsageError(`--timeout '${text}' is not a duration; use e.g. 90s, 20m or 1h30m`);
  return ms;
}
