/**
 * Approved workspaces and the isolated working copy of a run (design.md §7).
 * A path is approved when, after realpath, it is a registered workspace (or inside one) or lies under one of
 * config.workspaceRoots (also realpath'd), so neither `..` nor a symlink gets out. Each run works in its own
 * copy under $WFCTL_HOME/artifacts/runs/<runId>/workspace: `git clone --shared` of a repository (reads only, so
 * a read-only mount works and the user's checkout, index and refs are never touched), a plain copy otherwise.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../core/config.js';
import { WfError } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { DB } from '../sql/db.js';
import { stmt } from '../sql/stmt.js';

const run = promisify(execFile);

const under = (p: string, root: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

export interface WorkspaceRow {
  id: string;
  path: string;
  label: string;
  approved_by: string | null;
  created_at: string;
}

/** The real path of inputPath if it is an approved workspace; otherwise WORKSPACE_NOT_APPROVED with the reason. */
export function resolveApprovedWorkspace(db: DB, config: Config, inputPath: string): string {
  if (typeof inputPath !== 'string' || !inputPath.trim()) throw new WfError('WORKSPACE_NOT_APPROVED', 'workspace path is empty');
  const abs = path.resolve(inputPath);
  const real = realOrUndefined(abs);
  if (!real) throw new WfError('WORKSPACE_NOT_APPROVED', `workspace ${abs} does not exist`);
  if (!statSync(real).isDirectory()) throw new WfError('WORKSPACE_NOT_APPROVED', `workspace ${abs} is not a folder`);
  for (const root of config.workspaceRoots) {
    const r = realOrUndefined(root);
    if (r && under(real, r)) return real;
  }
  for (const row of stmt(db, 'SELECT path FROM workspaces').all() as Array<{ path: string }>) {
    const r = realOrUndefined(row.path) ?? row.path;
    if (under(real, r)) return real;
  }
  const via = real !== abs ? ` (it resolves to ${real})` : '';
  throw new WfError('WORKSPACE_NOT_APPROVED', `workspace ${abs}${via} is not approved; approve it with \`wfctl workspace approve ${real}\` or place it under ${config.workspaceRoots.join(':')}`);
}

/** Registers a folder as an approved workspace (stored as its real path). Idempotent: returns the existing row. */
export function approveWorkspace(db: DB, inputPath: string, opts: { label?: string; approvedBy?: string | null } = {}): { row: WorkspaceRow; created: boolean } {
  const abs = path.resolve(inputPath);
  const real = realOrUndefined(abs);
  if (!real) throw new WfError('VALIDATION_FAILED', `${abs} does not exist`);
  if (!statSync(real).isDirectory()) throw new WfError('VALIDATION_FAILED', `${abs} is not a folder`);
  const existing = stmt(db, 'SELECT * FROM workspaces WHERE path = ?').get(real) as WorkspaceRow | undefined;
  if (existing) return { row: existing, created: false };
  const row: WorkspaceRow = { id: randomUUID(), path: real, label: opts.label ?? path.basename(real), approved_by: opts.approvedBy ?? null, created_at: nowIso() };
  stmt(db, 'INSERT INTO workspaces (id, path, label, approved_by, created_at) VALUES (?, ?, ?, ?, ?)').run(row.id, row.path, row.label, row.approved_by, row.created_at);
  return { row, created: true };
}

export function listWorkspaces(db: DB): WorkspaceRow[] {
  return stmt(db, 'SELECT * FROM workspaces ORDER BY path').all() as WorkspaceRow[];
}

/** Removes an approval by id, path or the path's real path. Returns the removed row, or undefined. */
export function revokeWorkspace(db: DB, idOrPath: string): WorkspaceRow | undefined {
  const candidates = [idOrPath, path.resolve(idOrPath), realOrUndefined(idOrPath)].filter(Boolean) as string[];
  for (const c of candidates) {
    const row = stmt(db, 'SELECT * FROM workspaces WHERE id = ? OR path = ?').get(c, c) as WorkspaceRow | undefined;
    if (row) {
      stmt(db, 'DELETE FROM workspaces WHERE id = ?').run(row.id);
      return row;
    }
  }
  return undefined;
}

/** The run's artifacts folder. */
export function runArtifactsDir(config: Pick<Config, 'home'>, runId: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(runId)) throw new WfError('BAD_REQUEST', `invalid run id '${runId}'`);
  return path.join(config.home, 'artifacts', 'runs', runId);
}

/** Whether repoPath is the top folder of a git work tree. */
export async function isGitTop(repoPath: string): Promise<boolean> {
  try {
    const { stdout } = await run('git', ['-c', 'safe.directory=*', '-C', repoPath, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' });
    return realOrUndefined(stdout.trim()) === realOrUndefined(repoPath);
  } catch {
    return false;
  }
}

/**
 * Makes (or reuses) the run's working copy and returns its path. The copy is built in a temporary sibling and
 * renamed into place, so a crash mid-copy never leaves a half copy that a retried run.start would reuse.
 */
export async function prepareWorkingCopy(config: Config, runId: string, repoPath: string): Promise<string> {
  const dir = runArtifactsDir(config, runId);
  const dest = path.join(dir, 'workspace');
  if (existsSync(dest)) return dest;
  mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.workspace-${randomUUID().slice(0, 8)}`);
  try {
    if (await isGitTop(repoPath)) {
      await run('git', ['-c', 'safe.directory=*', 'clone', '--shared', '--quiet', repoPath, tmp], { encoding: 'utf8' });
    } else {
      cpSync(repoPath, tmp, { recursive: true, verbatimSymlinks: true });
    }
    if (existsSync(dest)) rmSync(tmp, { recursive: true, force: true });
    else renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const msg = (e as { stderr?: string }).stderr?.trim() || (e as Error).message;
    throw new WfError('INTERNAL', `could not prepare the working copy of ${repoPath}: ${msg}`);
  }
  return dest;
}
