import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { gitRepo, runWfctl, tempDir, testEnv } from '../helpers.js';

const W = suite('cli/workspace');

W('workspace :: approve (real path), list (text and JSON), revoke', async () => {
  const home = tempDir();
  const env = testEnv(home);
  const repo = gitRepo();
  const link = path.join(tempDir(), 'link');
  symlinkSync(repo, link);
  const a = await runWfctl(['workspace', 'approve', link, '--label', 'demo'], { env });
  assert.is(a.code, 0, a.stderr);
  assert.is(a.stdout.trim(), `approved ${repo}`);
  assert.match((await runWfctl(['workspace', 'approve', repo], { env })).stdout, /already approved/);
  const l = await runWfctl(['workspace', 'list', '--json'], { env });
  const j = JSON.parse(l.stdout);
  assert.equal(j.workspaces.map((w: any) => [w.path, w.label]), [[repo, 'demo']]);
  assert.equal(j.roots, [path.join(home, 'codebases')]);
  assert.match((await runWfctl(['workspace', 'list'], { env })).stdout, new RegExp(`${repo}  \\(demo\\)`));
  const r = await runWfctl(['workspace', 'revoke', repo], { env });
  assert.equal([r.code, r.stdout.trim()], [0, `revoked ${repo}`]);
  assert.equal(JSON.parse((await runWfctl(['workspace', 'list', '--json'], { env })).stdout).workspaces, []);
});

W('workspace :: mistakes give one line and a non-zero exit', async () => {
  const env = testEnv(tempDir());
  const missing = await runWfctl(['workspace', 'approve', '/nonexistent/zzz'], { env });
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /does not exist/);
  assert.is(missing.stderr.trim().split('\n').length, 1);
  const unknown = await runWfctl(['workspace', 'revoke', '/nonexistent/zzz'], { env });
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /no approved workspace/);
  assert.is((await runWfctl(['workspace', 'approve'], { env })).code, 2);
});

W.run();
