/**
 * Fresh fixtures for every suite: temporary homes, migrated databases, built apps, real git repositories,
 * the fake agent CLIs on PATH, and the real wfctl binary as a child process. Everything made here is removed
 * (folders) or killed (processes) when the test process exits.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../core/config.js';
import { packageRoot } from '../core/paths.js';
import { openDatabase, type DB } from '../sql/db.js';
import { seed } from '../sql/seed.js';

const cleanups: Array<() => void> = [];
let hooked = false;
function onExit(fn: () => void): void {
  cleanups.push(fn);
  if (hooked) return;
  hooked = true;
  const runAll = () => {
    for (const f of cleanups.splice(0).reverse()) {
      try {
        f();
      } catch {
        /* best effort */
      }
    }
  };
  process.on('exit', runAll);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      runAll();
      process.exit(130);
    });
  }
}

/** A temporary folder removed when the test process exits. */
export function tempDir(prefix = 'wfctl-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  onExit(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const ROOT = packageRoot();
/** The fake claude / codex / gemini (source folder: they are plain Node scripts, not compiled). */
export const FAKE_BIN = path.join(ROOT, 'test', 'fixtures', 'bin');
/** The built wfctl executable. */
export const WFCTL_BIN = path.join(ROOT, 'dist', 'cli', 'bin.js');

/** Environment for a child wfctl / agent: a temporary home, quiet logs, the fakes first on PATH. */
export function testEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WFCTL_HOME: home,
    WFCTL_DB: undefined,
    WFCTL_LOG_LEVEL: 'silent',
    WFCTL_POLL_MS: '20',
    PATH: `${FAKE_BIN}:${process.env.PATH}`,
    NO_COLOR: '1',
    ...extra,
  };
}

/** Configuration pointing at a new temporary home, listening on a free port. */
export function testConfig(overrides: Partial<Config> = {}, env: Record<string, string | undefined> = {}): Config {
  const home = tempDir('wfctl-home-');
  return loadConfig({ WFCTL_HOME: home, WFCTL_POLL_MS: '20', ...env }, { port: 0, logLevel: 'silent', ...overrides });
}

/** A migrated, seeded database in a new temporary home. */
export function testDb(config: Config = testConfig()): { db: DB; config: Config } {
  const db = openDatabase(config);
  seed(db);
  onExit(() => db.open && db.close());
  return { db, config };
}

/** A real git repository with one commit (README.md), removed at exit. */
export function gitRepo(files: Record<string, string> = { 'README.md': '# sample\n' }): string {
  const dir = tempDir('wfctl-repo-');
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'wfctl test');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return dir;
}

const children = new Set<ChildProcess>();
onExit(() => {
  for (const c of children) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGKILL');
    } catch {
      try {
        c.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
});

/** Spawns a process in its own group, killed (with its group) at exit if still alive. */
export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/**
 * Resolves with how a child ended, at once if it already has, else when it exits; rejects after timeoutMs
 * (naming the process) so a child that never ends fails its test instead of hanging the file. Attach it
 * before signalling the child, or after: both work.
 */
export function exited(child: ChildProcess, timeoutMs = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pid ${child.pid} (${child.spawnargs.slice(0, 3).join(' ')}) still running after ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built wfctl binary to completion. */
export function runWfctl(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(process.execPath, [WFCTL_BIN, ...args], {
      env: opts.env ?? process.env,
      cwd: opts.cwd ?? ROOT,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
      reject(new Error(`wfctl ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 30_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Polls until fn returns a truthy value (or throws after timeoutMs). */
export async function waitFor<T>(fn: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 20, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * `wfctl <command> --port <random>` (serve, runner) as a real child process, once its health route answers:
 * the child, its port and everything it printed so far. `kill()` SIGKILLs its group if it is still running.
 */
export async function startListening(command: 'serve' | 'runner', env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number; out: () => string; kill: () => void }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawnTracked(process.execPath, [WFCTL_BIN, command, '--port', String(port)], { env });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  };
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, 30_000, 100, `wfctl ${command} on ${port}: ${out}`);
  } catch (e) {
    kill();
    throw e;
  }
  return { child, port, out: () => out, kill };
}

/** A connection to 127.0.0.1:port that sends nothing, like a browser's or HTTP client's spare connection. */
export function openSpare(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Whether a process id is alive (and not a zombie). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const r = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return r.status === 0 && !r.stdout.trim().startsWith('Z');
}
