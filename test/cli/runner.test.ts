import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { exited, gitRepo, openSpare, runWfctl, startListening, tempDir, testEnv, waitFor } from '../helpers.js';

const Runner = suite('cli/runner');

Runner('runner :: serves the runtime routes alone behind the secret it creates; SIGTERM stops it with 0', async () => {
  const home = tempDir();
  const s = await startListening('runner', testEnv(home));
  try {
    const secret = readFileSync(path.join(home, 'secrets', 'runner'), 'utf8');
    const url = `http://127.0.0.1:${s.port}/api/runtimes/direct-cli/run`;
    const payload = JSON.stringify({ agent: 'claude', prompt: 'x', workspace_path: '/nonexistent' });
    const noAuth = await fetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
    assert.is(noAuth.status, 401);
    const withAuth = await fetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` } });
    assert.is(withAuth.status, 422, 'authenticated; the workspace check answers');
    assert.is((await fetch(`http://127.0.0.1:${s.port}/api/workflows`, { headers: { authorization: `Bearer ${secret}` } })).status, 404, 'nothing but the runner routes');
    assert.match(s.out(), /wfctl runner serving/);
    s.child.kill('SIGTERM');
    assert.is((await exited(s.child)).code, 0, s.out());
  } finally {
    s.kill();
  }
});

Runner('runner :: after an aborted agent request and with a spare connection open, SIGTERM still stops it at once', async () => {
  const home = tempDir();
  // A grace far beyond the bound below: the stop must not depend on cutting connections after the grace.
  const env = testEnv(home, { WFCTL_SHUTDOWN_GRACE_MS: '600000' });
  const s = await startListening('runner', env);
  let spare: Awaited<ReturnType<typeof openSpare>> | undefined;
  try {
    const repo = gitRepo();
    assert.is((await runWfctl(['workspace', 'approve', repo], { env })).code, 0);
    const secret = readFileSync(path.join(home, 'secrets', 'runner'), 'utf8').trim();
    const marker = `marker-${Date.now()}-${s.port}`;
    const ac = new AbortController();
    const req = fetch(`http://127.0.0.1:${s.port}/api/runtimes/direct-cli/run`, {
      method: 'POST', signal: ac.signal, headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ agent: 'claude', prompt: `${marker} [[fake:sleep=30]]`, workspace_path: repo, sandbox: false }),
    });
    await waitFor(() => spawnSync('pgrep', ['-f', marker]).status === 0, 10_000, 50, 'agent running on the runner');
    ac.abort();
    await req.catch(() => undefined);
    await waitFor(() => spawnSync('pgrep', ['-f', marker]).status === 1, 10_000, 50, 'agent cancelled by the disconnect');
    spare = await openSpare(s.port);
    s.child.kill('SIGTERM');
    assert.is((await exited(s.child, 10_000)).code, 0, s.out());
  } finally {
    spare?.destroy();
    s.kill();
  }
});

Runner.run();
