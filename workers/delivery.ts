/**
 * Delivery of a write run (design.md §7): the working copy's changes are committed on
 * `wfctl/<first 8 of run id>-<slug of workflow name>`, pushed to the user repository's `origin` remote and
 * proposed as a pull request (GitHub REST with a `github` connector's token, or `gh` when installed); with no
 * remote, or when the push fails, the branch goes into a git bundle in the run's artifacts. Every git command
 * runs in the copy: the user's repository is only read (`remote get-url`), never written. Read-only runs never
 * deliver anything.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../core/config.js';
import { WfError } from '../core/errors.js';
import { slugify } from '../core/graph.js';
import type { DB } from '../sql/db.js';
import { readSecret } from '../sql/secrets.js';
import { stmt } from '../sql/stmt.js';
import { findOnPath } from './agents/bin.js';
import { runArtifactsDir } from './workspace.js';

const exec = promisify(execFile);

export interface Delivery {
  branch: string;
  pull_request_url?: string;
  bundle_path?: string;
  message: string;
}

interface RunRow { id: string; workflow_name: string; workspace_path: string; write: number; workdir: string | null }
interface ConnectorRow { id: string; name: string; config: string }

/**
 * Git in the copy with a fixed identity, no hooks and no fsmonitor (the agent could have planted either; the
 * sandbox also keeps the copy's .git read-only). Extra environment (auth headers) only through env, never argv.
 */
async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await exec('git', ['-c', 'safe.directory=*', '-c', 'user.name=wfctl', '-c', 'user.email=wfctl@localhost', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args], {
      cwd, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...env }, maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (e) {
    const msg = ((e as { stderr?: string }).stderr || (e as Error).message).trim().split('\n').slice(-2).join(' ');
    throw new Error(`git ${args[0]} failed: ${msg}`);
  }
}

async function tryGit(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return await git(cwd, args);
  } catch {
    return undefined;
  }
}

/** `owner/repo` from a remote URL (https, ssh, scp-like or a local path): its last two path segments. */
export function ownerRepoOf(url: string): string | undefined {
  const p = url.replace(/^[a-z+]+:\/\/[^/]+/i, '').replace(/^[^@/]+@[^:]+:/, '').replace(/\.git\/?$/, '').replace(/\/+$/, '');
  const parts = p.split('/').filter(Boolean);
  return parts.length >= 2 ? `${parts[parts.length - 2]}/${parts[parts.length - 1]}` : undefined;
}

/** GitHub REST: open a pull request, or find the open one for the same head (a second delivery). */
async function openPullRequest(api: string, token: string, repo: string, head: string, base: string, title: string, body: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'wfctl', 'content-type': 'application/json' };
  const base_ = api.replace(/\/+$/, '');
  const res = await fetch(`${base_}/repos/${repo}/pulls`, { method: 'POST', headers, body: JSON.stringify({ title, head, base, body }), signal: AbortSignal.timeout(30_000) });
  const data = (await res.json().catch(() => ({}))) as { html_url?: string; message?: string };
  if (res.ok && data.html_url) return data.html_url;
  if (res.status === 422) {
    const owner = repo.split('/')[0];
    const list = await fetch(`${base_}/repos/${repo}/pulls?state=open&head=${encodeURIComponent(`${owner}:${head}`)}`, { headers, signal: AbortSignal.timeout(30_000) });
    const found = (await list.json().catch(() => [])) as Array<{ html_url?: string }>;
    if (Array.isArray(found) && found[0]?.html_url) return found[0].html_url;
  }
  throw new Error(`GitHub answered ${res.status}: ${data.message ?? 'no message'}`);
}

/** How long `gh pr create` may take before it is killed (it talks to GitHub; it must not hold the run open). */
const GH_TIMEOUT_MS = 60_000;
const PULL_URL = /https?:\/\/\S+\/pull\/\d+/;

/**
 * The GitHub CLI: `gh pr create` with every answer on the command line (no prompts: GH_PROMPT_DISABLED), as gh
 * runs without a terminal: the new pull request's URL alone on stdout. When the branch already has an open
 * pull request gh exits 1 and names it on stderr; that one is the answer, as with the REST path.
 */
async function openPullRequestWithGh(ghBin: string, cwd: string, repo: string, head: string, base: string, title: string, body: string): Promise<string> {
  const env = { ...process.env, GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1' };
  try {
    const { stdout } = await exec(ghBin, ['pr', 'create', '--repo', repo, '--head', head, '--base', base, '--title', title, '--body', body], {
      cwd, encoding: 'utf8', env, timeout: GH_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024,
    });
    const url = PULL_URL.exec(stdout)?.[0];
    if (!url) throw new Error(`gh printed no pull request URL (${JSON.stringify(stdout.trim().slice(0, 200))})`);
    return url;
  } catch (e) {
    const err = e as { stderr?: string; killed?: boolean; signal?: string; message: string };
    const stderr = (err.stderr ?? '').trim();
    const existing = /already exists/i.test(stderr) ? PULL_URL.exec(stderr)?.[0] : undefined;
    if (existing) return existing;
    if (err.killed || err.signal === 'SIGKILL') throw new Error(`gh pr create did not finish within ${GH_TIMEOUT_MS / 1000} s`);
    throw new Error(stderr ? `gh pr create: ${stderr.split('\n').slice(-2).join(' ')}` : err.message);
  }
}

function githubConnector(db: DB, home: string): { token: string; api: string; repository?: string; base?: string } | undefined {
  const rows = stmt(db, "SELECT id, name, config FROM connectors WHERE type = 'github' AND has_secret = 1 ORDER BY created_at, rowid").all() as ConnectorRow[];
  for (const r of rows) {
    const token = readSecret(home, `connector-${r.id}`)?.trim();
    if (!token) continue;
    const c = JSON.parse(r.config) as Record<string, unknown>;
    const str = (k: string) => (typeof c[k] === 'string' && c[k] ? (c[k] as string) : undefined);
    return { token, api: str('api_url') ?? str('apiUrl') ?? 'https://api.github.com', repository: str('repository'), base: str('base') };
  }
  return undefined;
}

export async function deliverRun(db: DB, config: Config, runId: string): Promise<Delivery> {
  const run = stmt(db, 'SELECT id, workflow_name, workspace_path, write, workdir FROM workflow_runs WHERE id = ?').get(runId) as RunRow | undefined;
  if (!run) throw new WfError('RUN_NOT_FOUND', `no run with id '${runId}'`);
  if (!run.write) return { branch: '', message: 'read-only run: nothing was delivered' };
  const artifacts = runArtifactsDir(config, runId);
  const copy = run.workdir ?? path.join(artifacts, 'workspace');
  if (!existsSync(copy)) throw new WfError('INTERNAL', `the run's working copy ${copy} is missing; nothing to deliver`);
  const branch = `wfctl/${runId.slice(0, 8)}-${slugify(run.workflow_name) || 'run'}`;
  const title = `wfctl: ${run.workflow_name} (run ${runId.slice(0, 8)})`;

  const isGit = existsSync(path.join(copy, '.git'));
  const baseBranch = isGit ? await tryGit(copy, ['symbolic-ref', '--short', '-q', 'HEAD']) : undefined;
  const baseCommit = isGit ? await tryGit(copy, ['rev-parse', '-q', '--verify', 'HEAD']) : undefined;
  if (!isGit) await git(copy, ['init', '-q']);
  await git(copy, ['checkout', '-q', '-B', branch]);
  await git(copy, ['add', '-A']);
  if (await git(copy, ['status', '--porcelain'])) await git(copy, ['commit', '-q', '-m', title, '-m', `Made by wfctl run ${runId}.`]);
  const head = await tryGit(copy, ['rev-parse', '-q', '--verify', 'HEAD']);
  if (!head || head === baseCommit) return { branch, message: 'the run changed nothing: no branch was delivered' };

  const store = (d: Delivery) => {
    stmt(db, 'UPDATE workflow_runs SET branch = ?, pull_request_url = ?, bundle_path = ?, updated_at = ? WHERE id = ?').run(
      d.branch, d.pull_request_url ?? null, d.bundle_path ?? null, new Date().toISOString(), runId);
    return d;
  };
  const bundle = async (why: string): Promise<Delivery> => {
    const file = path.join(artifacts, `${branch.replace(/\//g, '-')}.bundle`);
    await git(copy, ['bundle', 'create', '-q', file, branch]);
    return store({ branch, bundle_path: file, message: `${why}: branch ${branch} is in the bundle ${file} (git fetch ${file} ${branch}:${branch})` });
  };

  const origin = existsSync(path.join(run.workspace_path, '.git')) ? await tryGit(run.workspace_path, ['remote', 'get-url', 'origin']) : undefined;
  if (!origin) return bundle('the repository has no origin remote');

  const gh = githubConnector(db, config.home);
  const pushEnv: NodeJS.ProcessEnv = {};
  if (gh && /^https:/i.test(origin)) {
    // The token travels as an HTTP header set through git's environment config, never on a command line.
    Object.assign(pushEnv, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`x-access-token:${gh.token}`).toString('base64')}` });
  }
  try {
    await git(copy, ['push', '-q', origin, `HEAD:refs/heads/${branch}`], pushEnv);
  } catch (e) {
    return bundle(`push to origin failed (${(e as Error).message})`);
  }
  const base = baseBranch ?? gh?.base ?? 'main';
  const body = `Changes made by the wfctl workflow **${run.workflow_name}** (run \`${runId}\`).`;
  const repo = gh?.repository ?? ownerRepoOf(origin);
  try {
    if (gh && repo) {
      const url = await openPullRequest(gh.api, gh.token, repo, branch, base, title, body);
      return store({ branch, pull_request_url: url, message: `pushed ${branch} and opened ${url}` });
    }
    const ghBin = findOnPath('gh');
    if (ghBin && /github\.com/i.test(origin) && repo) {
      const url = await openPullRequestWithGh(ghBin, copy, repo, branch, base, title, body);
      return store({ branch, pull_request_url: url, message: `pushed ${branch} and opened ${url}` });
    }
  } catch (e) {
    return store({ branch, message: `pushed ${branch} to origin; opening the pull request failed: ${(e as Error).message}` });
  }
  return store({ branch, message: `pushed ${branch} to origin; no github connector or gh CLI to open a pull request` });
}
