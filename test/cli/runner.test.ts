import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exited, spawnTracked, tempDir, testEnv, waitFor, WFCTL_BIN } from '../helpers.js';

const Runner = suite('cli/runner');

Runner('runner :: serves the runtime routes alone behind the secret it creates; SIGTERM stops it with 0', async () => {
  const home = tempDir();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawnTracked(process.execPath, [WFCTL_BIN, 'runner', '--port', String(port)], { env: testEnv(home) });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, 15_000, 100, `runner on ${port}: ${out}`);
    const secret = readFileSync(path.join(home, 'secrets', 'runner'), 'utf8');
    const url = `http://127.0.0.1:${port}/api/runtimes/direct-cli/run`;
    const payload = JSON.stringify({ agent: 'claude', prompt: 'x', workspace_path: '/nonexistent' });
    const noAuth = await fetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
    assert.is(noAuth.status, 401);
    const withAuth = await fetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` } });
    assert.is(withAuth.status, 422, 'authenticated; the workspace check answers');
    assert.is((await fetch(`http://127.0.0.1:${port}/api/workflows`, { headers: { authorization: `Bearer ${secret}` } })).status, 404, 'nothing but the runner routes');
    assert.match(out, /wfctl runner serving/);
  } finally {
    child.kill('SIGTERM');
    assert.is((await exited(child)).code, 0, out);
  }
});

Runner.run();
