import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { approveWorkspace, listWorkspaces, prepareWorkingCopy, resolveApprovedWorkspace, revokeWorkspace } from '../../workers/workspace.js';
import { gitRepo, tempDir, testConfig, testDb } from '../helpers.js';
import { repoFingerprint } from './fingerprint.js';

const Approved = suite('workers/workspace: resolveApprovedWorkspace');

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  return undefined;
};

Approved('approval :: a path under a workspace root is approved, as its real path', () => {
  const root = tempDir('wfctl-roots-');
  const config = testConfig({ workspaceRoots: [root] });
  const { db } = testDb(config);
  mkdirSync(path.join(root, 'repo'));
  assert.is(resolveApprovedWorkspace(db, config, path.join(root, 'x', '..', 'repo')), path.join(root, 'repo'));
});

Approved('approval :: an unregistered path is refused before anything happens, with the fix in the message', () => {
  const { db, config } = testDb();
  const repo = gitRepo();
  const err = code(() => resolveApprovedWorkspace(db, config, repo));
  assert.is(err?.code, 'WORKSPACE_NOT_APPROVED');
  assert.match(err!.message, /wfctl workspace approve/);
});

Approved('approval :: a symlink inside an approved root pointing outside it is refused', () => {
  const root = tempDir('wfctl-roots-');
  const config = testConfig({ workspaceRoots: [root] });
  const { db } = testDb(config);
  const outside = gitRepo();
  symlinkSync(outside, path.join(root, 'sneaky'));
  const err = code(() => resolveApprovedWorkspace(db, config, path.join(root, 'sneaky')));
  assert.is(err?.code, 'WORKSPACE_NOT_APPROVED');
  assert.match(err!.message, /resolves to/);
  const dots = code(() => resolveApprovedWorkspace(db, config, path.join(root, '..', path.basename(outside))));
  assert.is(dots?.code, 'WORKSPACE_NOT_APPROVED');
});

Approved('approval :: registered workspaces (and their subfolders) are approved; revoke removes them', () => {
  const { db, config } = testDb();
  const repo = gitRepo();
  mkdirSync(path.join(repo, 'sub'));
  const { row, created } = approveWorkspace(db, repo, { label: 'demo' });
  assert.ok(created);
  assert.is(approveWorkspace(db, repo).created, false);
  assert.is(resolveApprovedWorkspace(db, config, repo), repo);
  assert.is(resolveApprovedWorkspace(db, config, path.join(repo, 'sub')), path.join(repo, 'sub'));
  assert.equal(listWorkspaces(db).map((w) => w.path), [repo]);
  assert.is(revokeWorkspace(db, row.id)?.path, repo);
  assert.is(code(() => resolveApprovedWorkspace(db, config, repo))?.code, 'WORKSPACE_NOT_APPROVED');
});

Approved('approval :: missing paths and files are refused', () => {
  const { db, config } = testDb();
  assert.is(code(() => resolveApprovedWorkspace(db, config, '/nonexistent/zzz'))?.code, 'WORKSPACE_NOT_APPROVED');
  const f = path.join(tempDir(), 'file');
  writeFileSync(f, 'x');
  assert.is(code(() => approveWorkspace(db, f))?.code, 'VALIDATION_FAILED');
});

Approved.run();

const Copy = suite('workers/workspace: prepareWorkingCopy');

Copy('copy :: a git repository is cloned --shared from HEAD; the user repo is untouched', async () => {
  const config = testConfig();
  const repo = gitRepo({ 'README.md': '# hi\n', 'src/a.ts': 'export const a = 1;\n' });
  writeFileSync(path.join(repo, 'dirty.txt'), 'uncommitted');
  const before = repoFingerprint(repo);
  const copy = await prepareWorkingCopy(config, 'run-1', repo);
  assert.is(copy, path.join(config.home, 'artifacts', 'runs', 'run-1', 'workspace'));
  assert.is(readFileSync(path.join(copy, 'src/a.ts'), 'utf8'), 'export const a = 1;\n');
  assert.not.ok(existsSync(path.join(copy, 'dirty.txt')), 'only committed content');
  assert.ok(existsSync(path.join(copy, '.git', 'objects', 'info', 'alternates')));
  writeFileSync(path.join(copy, 'README.md'), 'changed in copy');
  spawnSync('git', ['-C', copy, 'commit', '-qam', 'copy change', '--author', 'a <a@b>'], { env: { ...process.env, GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } });
  assert.equal(repoFingerprint(repo), before);
});

Copy('copy :: idempotent: an existing copy is reused as it is', async () => {
  const config = testConfig();
  const repo = gitRepo();
  const copy = await prepareWorkingCopy(config, 'run-2', repo);
  writeFileSync(path.join(copy, 'marker'), '1');
  assert.is(await prepareWorkingCopy(config, 'run-2', repo), copy);
  assert.ok(existsSync(path.join(copy, 'marker')));
});

Copy('copy :: a plain folder is copied', async () => {
  const config = testConfig();
  const dir = tempDir();
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'docs', 'x.md'), 'plain');
  const copy = await prepareWorkingCopy(config, 'run-3', dir);
  assert.is(readFileSync(path.join(copy, 'docs', 'x.md'), 'utf8'), 'plain');
  assert.not.ok(existsSync(path.join(copy, '.git')));
});

Copy('copy :: a bad run id is refused', async () => {
  const config = testConfig();
  try {
    await prepareWorkingCopy(config, '../../etc', gitRepo());
    assert.unreachable();
  } catch (e) {
    assert.is((e as { code?: string }).code, 'BAD_REQUEST');
  }
});

Copy.run();
