import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { deadline } from '../../workers/deadline.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const Deadline = suite('workers/deadline');

Deadline('deadline :: aborts with a TimeoutError after ms, also when only the signal is kept through a GC', async () => {
  const { signal } = deadline(50);
  gc();
  await sleep(150);
  assert.ok(signal.aborted);
  assert.is((signal.reason as Error).name, 'TimeoutError');
});

Deadline('deadline :: the parent aborting aborts it with the parent reason', () => {
  const parent = new AbortController();
  const d = deadline(10_000, parent.signal);
  parent.abort(new Error('cancelled'));
  assert.ok(d.signal.aborted);
  assert.is((d.signal.reason as Error).message, 'cancelled');
  d.clear();
});

Deadline('deadline :: an already aborted parent aborts it at once; clear() stops the timer', async () => {
  const parent = new AbortController();
  parent.abort('gone');
  assert.ok(deadline(10_000, parent.signal).signal.aborted);
  const d = deadline(30);
  d.clear();
  await sleep(80);
  assert.not.ok(d.signal.aborted);
});

Deadline.run();
