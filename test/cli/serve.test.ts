import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { exited, openSpare, runWfctl, startListening, tempDir, testEnv } from '../helpers.js';

const Serve = suite('cli/serve');

Serve('serve :: starts on the given port and answers health; SIGTERM stops it with 0', async () => {
  const home = tempDir();
  const s = await startListening('serve', testEnv(home));
  try {
    const body = (await (await fetch(`http://127.0.0.1:${s.port}/api/health`)).json()) as any;
    assert.is(body.database.path, path.join(home, 'data', 'app.db'));
    s.child.kill('SIGTERM');
    assert.is((await exited(s.child)).code, 0, `exit after SIGTERM; output: ${s.out()}`);
  } finally {
    s.kill();
  }
});

Serve('serve :: a spare connection that never sends a request does not hold SIGTERM open', async () => {
  // A long grace: only the closing of idle connections can end the process in time, not a cut after the grace.
  const s = await startListening('serve', testEnv(tempDir(), { WFCTL_SHUTDOWN_GRACE_MS: '600000' }));
  let spare: Awaited<ReturnType<typeof openSpare>> | undefined;
  try {
    // Browsers and HTTP clients open connections ahead of need and keep them for minutes.
    spare = await openSpare(s.port);
    s.child.kill('SIGTERM');
    assert.is((await exited(s.child, 10_000)).code, 0, `exit after SIGTERM with a spare connection open; output: ${s.out()}`);
  } finally {
    spare?.destroy();
    s.kill();
  }
});

Serve('serve :: a corrupt database gives one line and a non-zero exit', async () => {
  const home = tempDir();
  const bad = path.join(home, 'bad.db');
  writeFileSync(bad, 'garbage'.repeat(200));
  const r = await runWfctl(['serve', '--port', '0'], { env: testEnv(home, { WFCTL_DB: bad }) });
  assert.is(r.code, 1);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /is not a SQLite database/);
  assert.not.match(r.stderr, /at .*\.js:\d+/);
});

Serve('serve :: an unusable database path gives one line and a non-zero exit', async () => {
  const home = tempDir();
  const file = path.join(home, 'plain-file');
  writeFileSync(file, 'x');
  const r = await runWfctl(['serve', '--port', '0'], { env: testEnv(home, { WFCTL_DB: path.join(file, 'app.db') }) });
  assert.is(r.code, 1);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /wfctl: cannot/);
});

Serve('cli :: an unknown command is a usage error (exit 2)', async () => {
  const r = await runWfctl(['frobnicate']);
  assert.is(r.code, 2);
});

Serve('cli :: a bad environment value names the variable (exit 2)', async () => {
  const r = await runWfctl(['serve'], { env: testEnv(tempDir(), { WFCTL_PORT: 'eighty' }) });
  assert.is(r.code, 2);
  assert.match(r.stderr, /WFCTL_PORT must be a whole number/);
});

Serve('cli :: --help lists serve', async () => {
  const r = await runWfctl(['--help']);
  assert.is(r.code, 0);
  assert.match(r.stdout, /serve/);
});

Serve.run();
