import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { deliverRun, ownerRepoOf } from '../../workers/delivery.js';
import { prepareWorkingCopy } from '../../workers/workspace.js';
import { saveConnector } from '../../sql/catalogue.js';
import type { DB } from '../../sql/db.js';
import type { Config } from '../../core/config.js';
import { ROOT, gitRepo, tempDir, testDb } from '../helpers.js';
import { repoFingerprint } from './fingerprint.js';

const D = suite('workers/delivery');

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** A user repository with a local bare `origin` at <tmp>/acme/widgets.git. */
function repoWithRemote(): { repo: string; remote: string } {
  const repo = gitRepo({ 'README.md': '# widgets\n' });
  const remote = path.join(tempDir('wfctl-remote-'), 'acme', 'widgets.git');
  mkdirSync(path.dirname(remote), { recursive: true });
  git(repo, 'clone', '-q', '--bare', repo, remote);
  git(repo, 'remote', 'add', 'origin', remote);
  return { repo, remote };
}

async function writeRun(db: DB, config: Config, repo: string, write = true): Promise<{ runId: string; copy: string }> {
  const runId = randomUUID();
  const copy = await prepareWorkingCopy(config, runId, repo);
  db.prepare("INSERT INTO workflow_runs (id, workflow_name, workspace_path, write, workdir, graph) VALUES (?, 'Fix Flaky Tests', ?, ?, ?, '{\"nodes\":[],\"edges\":[]}')").run(runId, repo, write ? 1 : 0, copy);
  // What an agent would do in the copy.
  writeFileSync(path.join(copy, 'fix.ts'), 'export const fixed = true;\n');
  return { runId, copy };
}

/** A fake GitHub REST API recording the pull-request calls. */
async function fakeGitHub(): Promise<{ url: string; calls: Array<{ method: string; path: string; auth?: string; body: any }>; close: () => Promise<void> }> {
  const calls: Array<{ method: string; path: string; auth?: string; body: any }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      calls.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body: raw ? JSON.parse(raw) : undefined });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ number: 7, html_url: 'https://github.example/acme/widgets/pull/7' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((r) => server.close(() => r())) };
}

D('delivery :: owner/repo from remote URLs', () => {
  assert.is(ownerRepoOf('https://github.com/acme/widgets.git'), 'acme/widgets');
  assert.is(ownerRepoOf('git@github.com:acme/widgets.git'), 'acme/widgets');
  assert.is(ownerRepoOf('/srv/git/acme/widgets.git'), 'acme/widgets');
});

D('delivery :: a write run pushes its branch to the local bare remote; the user repo is byte-for-byte unchanged', async () => {
  const { db, config } = testDb();
  const { repo, remote } = repoWithRemote();
  const before = repoFingerprint(repo);
  const { runId } = await writeRun(db, config, repo);
  const d = await deliverRun(db, config, runId);
  const branch = `wfctl/${runId.slice(0, 8)}-fix-flaky-tests`;
  assert.is(d.branch, branch);
  assert.is(git(remote, 'show', `${branch}:fix.ts`), 'export const fixed = true;');
  assert.is(git(remote, 'log', '-1', '--format=%an', branch), 'wfctl');
  assert.equal(repoFingerprint(repo), before);
  assert.match(d.message, /no github connector/);
  assert.is((db.prepare('SELECT branch FROM workflow_runs WHERE id = ?').get(runId) as any).branch, branch);
});

D('delivery :: with a github connector, a pull request is opened through the REST API with the right head and base', async () => {
  const { db, config } = testDb();
  const { repo } = repoWithRemote();
  const gh = await fakeGitHub();
  try {
    saveConnector(db, config.home, undefined, { name: 'github', type: 'github', config: { api_url: gh.url }, token: 'ghp_test_token' });
    const { runId } = await writeRun(db, config, repo);
    const d = await deliverRun(db, config, runId);
    assert.is(d.pull_request_url, 'https://github.example/acme/widgets/pull/7');
    assert.is(gh.calls.length, 1);
    const c = gh.calls[0];
    assert.equal([c.method, c.path, c.auth], ['POST', '/repos/acme/widgets/pulls', 'Bearer ghp_test_token']);
    assert.is(c.body.head, d.branch);
    assert.is(c.body.base, 'main');
    assert.match(c.body.title, /Fix Flaky Tests/);
    const row = db.prepare('SELECT pull_request_url, branch FROM workflow_runs WHERE id = ?').get(runId) as any;
    assert.equal(row, { pull_request_url: 'https://github.example/acme/widgets/pull/7', branch: d.branch });
  } finally {
    await gh.close();
  }
});

const GITHUB_ORIGIN = 'https://github.com/acme/widgets.git';

/**
 * A user repository (repoWithRemote) whose origin is then set to GITHUB_ORIGIN, as a GitHub clone's would be, with the
 * fake `gh` (test/fixtures/gh) first on PATH. No network here: a global git config rewrites pushes to that URL to
 * a local bare repository (`url.<bare>.pushInsteadOf`), so `remote get-url origin` still says github.com and the
 * push really lands. The environment is restored by `restore()`.
 */
function githubClone(mode: 'ok' | 'exists' | 'fail' | 'garbled'): { repo: string; remote: string; calls: () => Array<{ argv: string[]; cwd: string; env: Record<string, string> }>; restore: () => void } {
  const { repo, remote } = repoWithRemote();
  git(repo, 'remote', 'set-url', 'origin', GITHUB_ORIGIN);
  const dir = tempDir('wfctl-gh-');
  const gitconfig = path.join(dir, 'gitconfig');
  writeFileSync(gitconfig, `[url "${remote}"]\n\tpushInsteadOf = ${GITHUB_ORIGIN}\n`);
  const log = path.join(dir, 'gh.log');
  const saved = { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL, FAKE_GH_LOG: process.env.FAKE_GH_LOG, FAKE_GH_MODE: process.env.FAKE_GH_MODE };
  Object.assign(process.env, { PATH: `${path.join(ROOT, 'test', 'fixtures', 'gh')}${path.delimiter}${process.env.PATH}`, GIT_CONFIG_GLOBAL: gitconfig, FAKE_GH_LOG: log, FAKE_GH_MODE: mode });
  return {
    repo,
    remote,
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []),
    restore: () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
}

D('delivery :: with gh installed and a github.com origin, gh pr create opens the pull request (no prompts, head and base given)', async () => {
  const { db, config } = testDb();
  const gh = githubClone('ok');
  try {
    const { runId, copy } = await writeRun(db, config, gh.repo);
    const d = await deliverRun(db, config, runId);
    assert.is(d.pull_request_url, 'https://github.com/acme/widgets/pull/12', d.message);
    assert.is(git(gh.remote, 'show', `${d.branch}:fix.ts`), 'export const fixed = true;');
    const calls = gh.calls();
    assert.is(calls.length, 1);
    const { argv, cwd, env } = calls[0];
    const arg = (name: string) => argv[argv.indexOf(name) + 1];
    assert.equal(argv.slice(0, 2), ['pr', 'create']);
    assert.equal([arg('--repo'), arg('--head'), arg('--base')], ['acme/widgets', d.branch, 'main']);
    assert.match(arg('--title'), /Fix Flaky Tests/);
    assert.match(arg('--body'), new RegExp(runId));
    assert.is(cwd, copy);
    assert.is(env.GH_PROMPT_DISABLED, '1');
    const row = db.prepare('SELECT pull_request_url, branch FROM workflow_runs WHERE id = ?').get(runId) as any;
    assert.equal(row, { pull_request_url: 'https://github.com/acme/widgets/pull/12', branch: d.branch });
  } finally {
    gh.restore();
  }
});

D('delivery :: gh says the branch already has a pull request: that one is the answer', async () => {
  const { db, config } = testDb();
  const gh = githubClone('exists');
  try {
    const { runId } = await writeRun(db, config, gh.repo);
    const d = await deliverRun(db, config, runId);
    assert.is(d.pull_request_url, 'https://github.com/acme/widgets/pull/9', d.message);
  } finally {
    gh.restore();
  }
});

D('delivery :: gh fails or prints no URL: the branch stays pushed, no URL is stored, the message says why', async () => {
  for (const [mode, why] of [['fail', /Resource not accessible by integration/], ['garbled', /gh printed no pull request URL/]] as const) {
    const { db, config } = testDb();
    const gh = githubClone(mode);
    try {
      const { runId } = await writeRun(db, config, gh.repo);
      const d = await deliverRun(db, config, runId);
      assert.is(d.pull_request_url, undefined);
      assert.match(d.message, /opening the pull request failed/);
      assert.match(d.message, why);
      assert.is(git(gh.remote, 'show', `${d.branch}:fix.ts`), 'export const fixed = true;');
      const row = db.prepare('SELECT pull_request_url, branch FROM workflow_runs WHERE id = ?').get(runId) as any;
      assert.equal(row, { pull_request_url: null, branch: d.branch });
    } finally {
      gh.restore();
    }
  }
});

D('delivery :: without a remote the branch goes into a bundle in the run artifacts', async () => {
  const { db, config } = testDb();
  const repo = gitRepo();
  const before = repoFingerprint(repo);
  const { runId } = await writeRun(db, config, repo);
  const d = await deliverRun(db, config, runId);
  assert.ok(d.bundle_path && existsSync(d.bundle_path));
  assert.ok(d.bundle_path!.startsWith(path.join(config.home, 'artifacts', 'runs', runId)));
  assert.match(d.message, /bundle/);
  assert.match(git(repo, 'bundle', 'list-heads', d.bundle_path!), new RegExp(d.branch));
  assert.equal(repoFingerprint(repo), before);
  assert.is((db.prepare('SELECT bundle_path FROM workflow_runs WHERE id = ?').get(runId) as any).bundle_path, d.bundle_path);
});

D('delivery :: a read-only run never pushes', async () => {
  const { db, config } = testDb();
  const { repo, remote } = repoWithRemote();
  const { runId } = await writeRun(db, config, repo, false);
  const d = await deliverRun(db, config, runId);
  assert.is(d.branch, '');
  assert.match(d.message, /read-only/);
  assert.is(git(remote, 'branch', '--list', 'wfctl/*'), '');
});

D('delivery :: a run that changed nothing delivers nothing', async () => {
  const { db, config } = testDb();
  const { repo, remote } = repoWithRemote();
  const runId = randomUUID();
  const copy = await prepareWorkingCopy(config, runId, repo);
  db.prepare("INSERT INTO workflow_runs (id, workflow_name, workspace_path, write, workdir, graph) VALUES (?, 'x', ?, 1, ?, '{}')").run(runId, repo, copy);
  const d = await deliverRun(db, config, runId);
  assert.match(d.message, /changed nothing/);
  assert.is(git(remote, 'branch', '--list', 'wfctl/*'), '');
});

D('delivery :: a plain folder (not git) becomes a bundle of one commit', async () => {
  const { db, config } = testDb();
  const dir = tempDir();
  writeFileSync(path.join(dir, 'a.txt'), 'a');
  const { runId } = await writeRun(db, config, dir);
  const d = await deliverRun(db, config, runId);
  assert.ok(d.bundle_path && existsSync(d.bundle_path));
  assert.not.ok(existsSync(path.join(dir, '.git')));
});

D.run();
