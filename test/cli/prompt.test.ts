import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAction } from '../../cli/prompt.js';
import { formatDuration, latestByNode } from '../../cli/reporter/types.js';

const P = suite('cli/prompt and reporter helpers');

P('parseAction :: keys, words and dashes map to allowed actions only', () => {
  const all = ['approve', 'reject', 'request_revision'] as const;
  assert.is(parseAction('a', all), 'approve');
  assert.is(parseAction(' Approve ', all), 'approve');
  assert.is(parseAction('r', all), 'reject');
  assert.is(parseAction('v', all), 'request_revision');
  assert.is(parseAction('request-revision', all), 'request_revision');
  assert.is(parseAction('revise', all), 'request_revision');
  assert.is(parseAction('x', all), undefined);
  assert.is(parseAction('', all), undefined);
  // A gate that only allows approve and reject refuses a revision request.
  assert.is(parseAction('v', ['approve', 'reject']), undefined);
  assert.is(parseAction('reject', ['approve']), undefined);
});

P('formatDuration :: ms, seconds, minutes, hours', () => {
  assert.is(formatDuration(850), '850ms');
  assert.is(formatDuration(12_345), '12.3s');
  assert.is(formatDuration(245_000), '4m05s');
  assert.is(formatDuration(3_900_000), '1h05m');
  assert.is(formatDuration(-1), '');
});

P('latestByNode :: the highest attempt wins', () => {
  const s = (node_id: string, attempt: number, status: string) => ({ node_id, attempt, status }) as never;
  const m = latestByNode([s('a', 1, 'failed'), s('b', 1, 'completed'), s('a', 2, 'running')]);
  assert.is((m.get('a') as unknown as { status: string }).status, 'running');
  assert.is(m.size, 2);
});

P.run();
