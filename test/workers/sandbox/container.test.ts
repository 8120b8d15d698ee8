import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runAgent } from '../../../workers/agents/run.js';
import type { AgentRequest } from '../../../workers/agents/types.js';
import { FAKE_BIN, gitRepo, tempDir, waitFor } from '../../helpers.js';

const Container = suite('workers/sandbox/container');

/**
 * A fake `docker` on PATH: records each argv as a JSON line, answers `kill`, and for `run` executes the fake agent
 * CLI named after the image in the host folder mounted at /workspace (so the whole path really runs).
 */
function fakeDocker(): { dir: string; log: string } {
  const dir = tempDir('wfctl-docker-');
  const log = path.join(dir, 'docker.jsonl');
  writeFileSync(path.join(dir, 'docker'), `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const { spawn } = require('node:child_process');
const argv = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ argv, envKeys: Object.keys(process.env).filter((k) => k.startsWith('ANTHROPIC_') || k === 'IS_SANDBOX') }) + '\\n');
if (argv[0] !== 'run') process.exit(0);
let i = 1, mount;
const withValue = new Set(['--name', '-v', '-w', '-e', '--user']);
while (argv[i].startsWith('-')) { if (argv[i] === '-v' && !mount) mount = argv[i + 1]; i += withValue.has(argv[i]) ? 2 : 1; }
const image = argv[i], bin = argv[i + 1], args = argv.slice(i + 2);
const child = spawn(${JSON.stringify(FAKE_BIN)} + '/' + bin, args, { cwd: mount.split(':')[0], stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
`);
  // The script uses require(): its folder is CommonJS.
  writeFileSync(path.join(dir, 'package.json'), '{"type":"commonjs"}');
  chmodSync(path.join(dir, 'docker'), 0o755);
  return { dir, log };
}

const req = (dir: string, over: Partial<AgentRequest> = {}): AgentRequest => ({
  agent: 'claude', prompt: 'Fix it [[fake:write=fixed.txt:yes]]', cwd: gitRepo(), write: true, runtime: 'container', sandbox: true, timeoutMs: 20_000,
  env: { PATH: `${dir}:${process.env.PATH}` }, ...over,
});

const calls = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

Container('container :: docker run mounts the copy at /workspace with the image and env names only', async () => {
  const d = fakeDocker();
  const r = req(d.dir, { image: 'example/agents:1', env: { PATH: `${d.dir}:${process.env.PATH}`, ANTHROPIC_AUTH_TOKEN: 'tok-secret' } });
  const res = await runAgent(r);
  assert.is(res.status, 'completed', res.error);
  const [call] = calls(d.log);
  const a: string[] = call.argv;
  assert.is(a[0], 'run');
  assert.ok(a.includes('--rm'));
  assert.match(a[a.indexOf('--name') + 1], /^wfctl-agent-/);
  assert.is(a[a.indexOf('-v') + 1], `${r.cwd}:/workspace`);
  assert.ok(a.includes(`${r.cwd}/.git:/workspace/.git:ro`), 'the copy\'s .git is read-only for the agent');
  assert.is(a[a.indexOf('-w') + 1], '/workspace');
  const img = a.indexOf('example/agents:1');
  assert.ok(img > 0);
  assert.equal(a.slice(img + 1, img + 3), ['claude', '-p']);
  assert.ok(a.includes('bypassPermissions'), 'confined by the container: permissions bypassed');
  assert.ok(a.includes('-e') && a.includes('ANTHROPIC_AUTH_TOKEN'));
  assert.not.ok(JSON.stringify(a).includes('tok-secret'), 'values never in argv');
  assert.ok(call.envKeys.includes('ANTHROPIC_AUTH_TOKEN'));
  assert.is(res.command[0], path.join(d.dir, 'docker'));
  assert.is(readFileSync(path.join(r.cwd, 'fixed.txt'), 'utf8'), 'yes');
});

Container('container :: a read-only run mounts the copy read-only; WFCTL_AGENT_IMAGE is the default image', async () => {
  const d = fakeDocker();
  process.env.WFCTL_AGENT_IMAGE = 'corp/agents:2';
  try {
    const res = await runAgent(req(d.dir, { write: false, prompt: 'Look' }));
    assert.is(res.status, 'completed', res.error);
  } finally {
    delete process.env.WFCTL_AGENT_IMAGE;
  }
  const a: string[] = calls(d.log)[0].argv;
  assert.match(a[a.indexOf('-v') + 1], /:\/workspace:ro$/);
  assert.ok(a.includes('corp/agents:2'));
});

Container('container :: cancel kills the container by name and the client process group', async () => {
  const d = fakeDocker();
  const ac = new AbortController();
  const res = await runAgent(req(d.dir, { prompt: '[[fake:hang]]' }), { signal: ac.signal, onMessage: () => ac.abort() });
  assert.is(res.status, 'cancelled');
  const name = (() => {
    const a: string[] = calls(d.log)[0].argv;
    return a[a.indexOf('--name') + 1];
  })();
  await waitFor(() => calls(d.log).some((c) => c.argv[0] === 'kill' && c.argv[1] === name), 5000, 20, 'docker kill');
});

Container('container :: no docker or podman on PATH is refused with one clear line', async () => {
  try {
    await runAgent(req('/nonexistent', { env: { PATH: FAKE_BIN } }));
    assert.unreachable();
  } catch (e) {
    assert.is((e as { code?: string }).code, 'SANDBOX_UNAVAILABLE');
    assert.match((e as Error).message, /docker or podman/);
  }
});

Container.run();
