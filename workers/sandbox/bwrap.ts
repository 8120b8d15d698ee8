/**
 * Bubblewrap confinement for `runtime: direct` agents on Linux (design.md §7): the system read-only, the working
 * copy read-write (read-only for read-only runs), the agent CLI's own configuration folder bound, and the rest
 * of the home folder, the wfctl home (secrets, other runs) and the source repository invisible behind
 * read-only tmpfs mounts. /tmp, /dev and /proc are private; the agent gets its own PID namespace and dies with
 * wfctl (--die-with-parent). No new session: the agent stays in wfctl's process group for the group kill.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentName } from '../../core/graph.js';

export interface BwrapOptions {
  agent: AgentName;
  /** The working copy (agent cwd). */
  cwd: string;
  write: boolean;
  /** The agent's environment (HOME, CODEX_HOME, GEMINI_CLI_HOME, WFCTL_HOME are read from it). */
  env: NodeJS.ProcessEnv;
  /** Extra folders to hide. */
  hide?: string[];
}

const under = (p: string, root: string) => p === root || p.startsWith(root.endsWith('/') ? root : root + '/');

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** The CLI's own configuration folders that must stay reachable (and writable: sessions, auth refresh). */
export function agentConfigPaths(agent: AgentName, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || os.homedir();
  if (agent === 'claude') return [env.CLAUDE_CONFIG_DIR || path.join(home, '.claude')];
  if (agent === 'codex') return [env.CODEX_HOME || path.join(home, '.codex')];
  return [path.join(env.GEMINI_CLI_HOME || home, '.gemini')];
}

/** The wfctl home a copy at `<home>/artifacts/runs/<id>/workspace` belongs to. */
export function wfctlHomeOfCopy(cwd: string): string | undefined {
  const parts = cwd.split(path.sep);
  const n = parts.length;
  if (n >= 5 && parts[n - 1] === 'workspace' && parts[n - 3] === 'runs' && parts[n - 4] === 'artifacts') return parts.slice(0, n - 4).join(path.sep) || '/';
  return undefined;
}

/** Object folders a `git clone --shared` copy borrows from (its source repository's .git/objects). */
export function alternateObjectDirs(cwd: string): string[] {
  const file = path.join(cwd, '.git', 'objects', 'info', 'alternates');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((l) => real(path.resolve(path.join(cwd, '.git', 'objects'), l)));
}

/** The folders an executable needs readable: its own folder, its real folder, and its npm package. */
function execPaths(bin: string): string[] {
  const out = new Set<string>([path.dirname(bin)]);
  const r = real(bin);
  out.add(path.dirname(r));
  const i = r.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (i > 0) out.add(r.slice(0, i));
  return [...out];
}

/**
 * Config files the agent gets as a private copy (bwrap `--file FD`): Claude rewrites `~/.claude.json` by
 * writing a temporary file and renaming it over, which fails on a bind-mounted file; a copy in the private home
 * takes the writes (they are dropped afterwards; logins live in `~/.claude/`, which is bound).
 */
export function agentConfigCopies(agent: AgentName, env: NodeJS.ProcessEnv): string[] {
  if (agent !== 'claude' || env.CLAUDE_CONFIG_DIR) return [];
  const f = path.join(env.HOME || os.homedir(), '.claude.json');
  return statSync(f, { throwIfNoEntry: false })?.isFile() ? [f] : [];
}

/**
 * The bwrap argv that runs `bin args` confined. The files of agentConfigCopies(o.agent, o.env) must be open on
 * fds 3, 4, … of the bwrap process, in that order.
 */
export function bwrapArgs(o: BwrapOptions, bin: string, args: string[]): string[] {
  const cwd = real(o.cwd);
  const home = real(o.env.HOME || os.homedir());
  const alternates = alternateObjectDirs(cwd);
  // Source repositories of the copy: hidden, except their object stores the copy reads through.
  const sourceRepos = alternates.map((d) => (path.basename(path.dirname(d)) === '.git' ? path.dirname(path.dirname(d)) : path.dirname(d)));
  const candidates = [home, o.env.WFCTL_HOME, wfctlHomeOfCopy(cwd), ...sourceRepos, ...(o.hide ?? [])]
    .filter((p): p is string => !!p)
    .map(real)
    .filter((p) => p !== '/' && isDir(p));
  // Parents first; a folder inside another hidden one needs no mount of its own. Hidden folders under /tmp get
  // one too (read-only), so writing to them fails instead of landing unseen in the private /tmp.
  const hidden: string[] = [];
  for (const p of [...new Set(candidates)].sort((a, b) => a.length - b.length)) {
    if (hidden.some((h) => under(p, h))) continue;
    hidden.push(p);
  }
  const isHidden = (p: string) => under(p, '/tmp') || hidden.some((h) => under(p, h));
  const a = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const h of hidden) a.push('--tmpfs', h);
  const readable = [...execPaths(bin), ...execPaths(process.execPath), ...alternates].filter((p) => existsSync(p) && isHidden(p));
  for (const p of [...new Set(readable)]) a.push('--ro-bind', p, p);
  for (const p of agentConfigPaths(o.agent, o.env)) if (existsSync(p)) a.push('--bind', p, p);
  agentConfigCopies(o.agent, o.env).forEach((f, i) => a.push('--file', String(3 + i), f));
  // Test hooks of the fake CLIs (test/fixtures/bin): their log and state folders stay writable when set.
  for (const p of [o.env.WFCTL_FAKE_LOG && path.dirname(o.env.WFCTL_FAKE_LOG), o.env.WFCTL_FAKE_STATE]) {
    if (p && isDir(p)) a.push('--bind', real(p), real(p));
  }
  a.push(o.write ? '--bind' : '--ro-bind', cwd, cwd);
  // The copy's .git stays read-only: hooks or config planted there would run later, outside the sandbox, when
  // wfctl commits the changes. The agent edits files; wfctl makes the commit.
  if (o.write && existsSync(path.join(cwd, '.git'))) a.push('--ro-bind', path.join(cwd, '.git'), path.join(cwd, '.git'));
  // The user's home stays a writable (private, throw-away) tmpfs: CLIs and the tools they run write caches and
  // state there. The other hidden folders (wfctl home, source repositories) become read-only.
  for (const h of hidden) if (h !== home) a.push('--remount-ro', h);
  a.push('--chdir', cwd, '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--', bin, ...args);
  return a;
}
