import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findUserForLogin, verifyPassword } from '../../sql/users.js';
import { runWfctl, spawnTracked, waitFor, WFCTL_BIN } from '../helpers.js';
import { cliHome } from './fixture.js';

const R = suite('cli/user create');

R('user :: create reads the password from stdin, never from an argument', async () => {
  const h = cliHome();
  const r = await runWfctl(['user', 'create', 'ops', '--admin'], { env: h.env, input: 'correct horse battery\n' });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^created admin ops \([0-9a-f-]{36}\)\n$/);
  const row = findUserForLogin(h.db, 'ops')!;
  assert.is(row.role, 'admin');
  assert.ok(await verifyPassword('correct horse battery', (row as unknown as { password_hash: string }).password_hash));
  const op = await runWfctl(['user', 'create', 'alice'], { env: h.env, input: 'another password' });
  assert.match(op.stdout, /created operator alice/);
  const short = await runWfctl(['user', 'create', 'bob'], { env: h.env, input: 'short\n' });
  assert.is(short.code, 2);
  assert.match(short.stderr, /^wfctl: password must be at least 8 characters\n/);
  const taken = await runWfctl(['user', 'create', 'OPS'], { env: h.env, input: 'correct horse battery\n' });
  assert.is(taken.code, 2);
  assert.match(taken.stderr, /is taken/);
  const empty = await runWfctl(['user', 'create', 'carol'], { env: h.env, input: '' });
  assert.is(empty.code, 2);
  assert.match(empty.stderr, /no password on standard input/);
  const bad = await runWfctl(['user', 'create', 'no spaces'], { env: h.env, input: 'correct horse battery\n' });
  assert.is(bad.code, 2);
  const arg = await runWfctl(['user', 'create', 'dave', '--password', 'x'], { env: h.env });
  assert.is(arg.code, 2, 'no --password option');
});


R('user :: on a terminal the password is asked twice without echo', async () => {
  const h = cliHome();
  const p = spawnTracked('script', ['-qefc', `'${process.execPath}' '${WFCTL_BIN}' user create zed`, '/dev/null'], { env: h.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  p.stdout!.on('data', (d) => (out += d));
  const exit = new Promise((resolve) => p.on('close', resolve));
  await waitFor(() => out.includes('Password for zed: '), 20_000, 20, 'the prompt');
  p.stdin!.write('secret pass 1\r');
  await waitFor(() => out.includes('Repeat the password: '), 10_000, 20, 'the second prompt');
  p.stdin!.write('secret pass 1\r');
  assert.is(await exit, 0, out);
  assert.match(out, /created operator zed/);
  assert.not.match(out, /secret pass/, 'never echoed');
  assert.ok(await verifyPassword('secret pass 1', (findUserForLogin(h.db, 'zed') as unknown as { password_hash: string }).password_hash));
});


R.run();
