/**
 * A signal that aborts when `parent` does or after `ms` (reason: a TimeoutError DOMException). Built on a plain
 * controller and timer instead of `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: Node 20 holds the
 * sources of AbortSignal.any weakly, so an inline timeout signal can be garbage-collected before it fires and
 * the request then waits forever (seen: a webhook time-out test that let a 2 s answer through). The timer here
 * is a strong reference. Call clear() once the guarded work is done.
 */
export function deadline(ms: number, parent?: AbortSignal): { signal: AbortSignal; clear(): void } {
  const ac = new AbortController();
  if (parent?.aborted) {
    ac.abort(parent.reason);
    return { signal: ac.signal, clear() {} };
  }
  const onParent = () => ac.abort(parent!.reason);
  parent?.addEventListener('abort', onParent, { once: true });
  // unref: a deadline alone is no reason to keep the process alive (the guarded request is).
  const timer = setTimeout(() => ac.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), ms).unref();
  return {
    signal: ac.signal,
    clear() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
