import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitRepo, runWfctl, tempDir, testEnv } from '../helpers.js';

const Hook = suite('cli/hook pre-commit');

const hookPath = (repo: string) => path.join(repo, '.git', 'hooks', 'pre-commit');

/** A stand-in wfctl for the hook to call, recording its argv and exiting with `code`. */
function stubWfctl(code: number): { bin: string; log: string } {
  const dir = tempDir();
  const log = path.join(dir, 'calls.log');
  const bin = path.join(dir, 'wfctl');
  writeFileSync(bin, `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\nexit ${code}\n`);
  chmodSync(bin, 0o755);
  return { bin, log };
}

function commit(repo: string, env: NodeJS.ProcessEnv) {
  writeFileSync(path.join(repo, 'change.txt'), String(Math.random()));
  spawnSync('git', ['add', '-A'], { cwd: repo });
  return spawnSync('git', ['commit', '-m', 'change'], { cwd: repo, env, encoding: 'utf8' });
}

Hook('hook :: installs an executable scaffold with the workflow default', async () => {
  const repo = gitRepo();
  const r = await runWfctl(['hook', 'pre-commit', '--repo', repo], { env: testEnv(tempDir(), { WFCTL_WORKFLOW: 'code-review' }) });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /installed .*pre-commit/);
  const script = readFileSync(hookPath(repo), 'utf8');
  assert.match(script, /WFCTL_WORKFLOW_ID="\$\{WFCTL_WORKFLOW_ID:-code-review\}"/);
  assert.ok(statSync(hookPath(repo)).mode & 0o100, 'executable');
});

Hook('hook :: never overwrites a foreign hook silently; --force keeps a backup', async () => {
  const repo = gitRepo();
  writeFileSync(hookPath(repo), '#!/bin/sh\necho mine\n');
  const r = await runWfctl(['hook', 'pre-commit', '--repo', repo], { env: testEnv(tempDir()) });
  assert.is(r.code, 2);
  assert.match(r.stderr, /already exists and is not wfctl's; re-run with --force/);
  assert.is(readFileSync(hookPath(repo), 'utf8'), '#!/bin/sh\necho mine\n');
  const f = await runWfctl(['hook', 'pre-commit', '--repo', repo, '--force'], { env: testEnv(tempDir()) });
  assert.is(f.code, 0, f.stderr);
  assert.match(readFileSync(hookPath(repo), 'utf8'), /wfctl pre-commit gate/);
  assert.is(readFileSync(hookPath(repo) + '.wfctl-backup', 'utf8'), '#!/bin/sh\necho mine\n');
  // Re-installing over our own hook needs no --force.
  const again = await runWfctl(['hook', 'pre-commit', '--repo', repo], { env: testEnv(tempDir()) });
  assert.is(again.code, 0);
  assert.match(again.stdout, /replaced/);
});

Hook('hook :: --print writes the script to stdout and installs nothing', async () => {
  const repo = gitRepo();
  const r = await runWfctl(['hook', 'pre-commit', '--repo', repo, '--print'], { env: testEnv(tempDir()) });
  assert.is(r.code, 0);
  assert.match(r.stdout, /^#!\/bin\/sh/);
  assert.not.ok(existsSync(hookPath(repo)));
});

Hook('hook :: not a repository is one line and exit 2', async () => {
  const r = await runWfctl(['hook', 'pre-commit', '--repo', tempDir()], { env: testEnv(tempDir()) });
  assert.is(r.code, 2);
  assert.match(r.stderr, /is not a git repository/);
});

Hook('hook :: unset WFCTL_WORKFLOW_ID warns and allows the commit', async () => {
  const repo = gitRepo();
  await runWfctl(['hook', 'pre-commit', '--repo', repo], { env: testEnv(tempDir()) });
  const stub = stubWfctl(1);
  const env = { ...process.env, WFCTL_BIN: stub.bin, WFCTL_WORKFLOW_ID: '' };
  const c = commit(repo, env);
  assert.is(c.status, 0, c.stderr);
  assert.match(c.stderr, /WFCTL_WORKFLOW_ID is not set/);
  assert.not.ok(existsSync(stub.log), 'wfctl not called');
});

Hook('hook :: a workflow that does not complete blocks the commit; one that completes allows it', async () => {
  const repo = gitRepo();
  await runWfctl(['hook', 'pre-commit', '--repo', repo], { env: testEnv(tempDir(), { WFCTL_WORKFLOW: 'gate' }) });
  const failing = stubWfctl(1);
  const blocked = commit(repo, { ...process.env, WFCTL_BIN: failing.bin });
  assert.is.not(blocked.status, 0);
  assert.match(blocked.stderr, /workflow 'gate' did not complete \(exit 1\); commit blocked/);
  assert.is(readFileSync(failing.log, 'utf8').trim(), `run gate --repo ${spawnSync('realpath', [repo], { encoding: 'utf8' }).stdout.trim()}`);
  const passing = stubWfctl(0);
  const allowed = commit(repo, { ...process.env, WFCTL_BIN: passing.bin });
  assert.is(allowed.status, 0, allowed.stderr);
});

Hook.run();
