/**
 * One place for configuration: defaults (units in their names), overridden by the environment, then by
 * flags. Validated once; a bad value fails fast naming the variable. Behaviour never switches on NODE_ENV.
 */
import os from 'node:os';
import path from 'node:path';
import { WfError } from './errors.js';

export interface Config {
  /** State folder: data/, artifacts/, secrets/, codebases/. */
  home: string;
  /** SQLite file. */
  dbPath: string;
  host: string;
  port: number;
  /** Roots under which any repository counts as an approved workspace (realpath-compared). */
  workspaceRoots: string[];
  /** Global cap on concurrently running agent processes (Piscina pool size). */
  maxAgents: number;
  /** SQLite busy timeout. */
  busyTimeoutMs: number;
  /** Job lease length; renewed while a job works. */
  leaseMs: number;
  /** Cross-process queue poll interval (same-process enqueues wake the scheduler at once). */
  pollIntervalMs: number;
  /** How often the sweeper expires approvals and reaps stale leases / lost CLI runs. */
  sweepIntervalMs: number;
  /** Default wall-clock limit for one agent node attempt. */
  nodeTimeoutMs: number;
  /** Whether `wfctl serve` also runs the scheduler in-process. */
  embeddedScheduler: boolean;
  /** Host runner to delegate agent execution to (server inside a container); empty = in-process. */
  runnerUrl: string;
  /** Grace period for in-flight work on SIGTERM. */
  shutdownGraceMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export type Env = Record<string, string | undefined>;

/** Every environment variable wfctl reads, with its meaning; the README's table is generated from the same facts. */
export const ENV_VARS: ReadonlyArray<{ name: string; default: string; meaning: string }> = [
  { name: 'WFCTL_HOME', default: '~/.wfctl', meaning: 'State folder (data, artifacts, secrets, codebases). All users of one install must share it.' },
  { name: 'WFCTL_DB', default: '$WFCTL_HOME/data/app.db', meaning: 'SQLite database file.' },
  { name: 'WFCTL_HOST', default: '127.0.0.1', meaning: 'Address `wfctl serve` listens on.' },
  { name: 'WFCTL_PORT', default: '8080', meaning: 'Port `wfctl serve` listens on.' },
  { name: 'WFCTL_WORKSPACE_ROOTS', default: '$WFCTL_HOME/codebases', meaning: 'Colon-separated folders whose repositories count as approved workspaces.' },
  { name: 'WFCTL_MAX_AGENTS', default: 'CPU count', meaning: 'Cap on agent processes one wfctl process (serve, worker, run) runs at once.' },
  { name: 'WFCTL_BUSY_TIMEOUT_MS', default: '5000', meaning: 'SQLite busy timeout.' },
  { name: 'WFCTL_LEASE_MS', default: '30000', meaning: 'Job lease length; an expired lease is taken over by another scheduler.' },
  { name: 'WFCTL_POLL_MS', default: '200', meaning: 'Queue poll interval across processes.' },
  { name: 'WFCTL_SWEEP_MS', default: '10000', meaning: 'Sweeper interval (approval expiry, stale leases, lost terminal runs).' },
  { name: 'WFCTL_NODE_TIMEOUT_MS', default: '3600000', meaning: 'Default time limit of one agent node attempt.' },
  { name: 'WFCTL_SCHEDULER', default: 'embedded', meaning: '`embedded`: `wfctl serve` runs the scheduler; `off`: API only (run `wfctl worker` beside it).' },
  { name: 'WFCTL_RUNNER_URL', default: '(unset)', meaning: 'Host runner (`wfctl runner`) that runs agent CLIs on the host for a containerised server.' },
  { name: 'WFCTL_SHUTDOWN_GRACE_MS', default: '30000', meaning: 'On SIGTERM, how long in-flight nodes may finish before their leases are released.' },
  { name: 'WFCTL_LOG_LEVEL', default: 'info', meaning: 'Server log level (fatal, error, warn, info, debug, trace, silent).' },
  { name: 'WFCTL_AGENT_IMAGE', default: '(built-in)', meaning: 'Container image for agents with runtime `container` (a node can name its own).' },
  { name: 'WFCTL_CLAUDE_BIN / WFCTL_CODEX_BIN / WFCTL_GEMINI_BIN', default: '(PATH)', meaning: 'Path of an agent CLI binary.' },
  { name: 'WFCTL_WORKFLOW / WFCTL_WORKFLOW_ID', default: '(unset)', meaning: 'Workflow run by the pre-commit gate scaffold.' },
  { name: 'NO_COLOR', default: '(unset)', meaning: 'Turns colour off in terminal output.' },
];

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new WfError('CONFIG_INVALID', `${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return n;
}

function expandHome(p: string, homedir: string): string {
  if (p === '~') return homedir;
  if (p.startsWith('~/')) return path.join(homedir, p.slice(2));
  return p;
}

/** Reads configuration from an environment (default: process.env) plus explicit overrides (flags). */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const homedir = os.homedir();
  const home = path.resolve(expandHome(env.WFCTL_HOME || '~/.wfctl', homedir));
  const dbPath = env.WFCTL_DB ? path.resolve(expandHome(env.WFCTL_DB, homedir)) : path.join(home, 'data', 'app.db');
  const roots = (env.WFCTL_WORKSPACE_ROOTS ?? '')
    .split(':')
    .filter(Boolean)
    .map((r) => path.resolve(expandHome(r, homedir)));
  const scheduler = env.WFCTL_SCHEDULER || 'embedded';
  if (scheduler !== 'embedded' && scheduler !== 'off') {
    throw new WfError('CONFIG_INVALID', `WFCTL_SCHEDULER must be 'embedded' or 'off', got '${scheduler}'`);
  }
  const logLevel = (env.WFCTL_LOG_LEVEL || 'info') as Config['logLevel'];
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new WfError('CONFIG_INVALID', `WFCTL_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got '${logLevel}'`);
  }
  const runnerUrl = env.WFCTL_RUNNER_URL ?? '';
  if (runnerUrl && !/^https?:\/\/[^/]+/.test(runnerUrl)) {
    throw new WfError('CONFIG_INVALID', `WFCTL_RUNNER_URL must be an http(s) URL, got '${runnerUrl}'`);
  }
  const config: Config = {
    home,
    dbPath,
    host: env.WFCTL_HOST || '127.0.0.1',
    port: int(env, 'WFCTL_PORT', 8080, 0, 65535),
    workspaceRoots: roots.length ? roots : [path.join(home, 'codebases')],
    maxAgents: int(env, 'WFCTL_MAX_AGENTS', Math.max(1, os.availableParallelism?.() ?? os.cpus().length), 1, 256),
    busyTimeoutMs: int(env, 'WFCTL_BUSY_TIMEOUT_MS', 5000, 0, 600_000),
    leaseMs: int(env, 'WFCTL_LEASE_MS', 30_000, 500, 3_600_000),
    pollIntervalMs: int(env, 'WFCTL_POLL_MS', 200, 5, 60_000),
    sweepIntervalMs: int(env, 'WFCTL_SWEEP_MS', 10_000, 50, 3_600_000),
    nodeTimeoutMs: int(env, 'WFCTL_NODE_TIMEOUT_MS', 3_600_000, 100, 7 * 24 * 3_600_000),
    embeddedScheduler: scheduler === 'embedded',
    runnerUrl,
    shutdownGraceMs: int(env, 'WFCTL_SHUTDOWN_GRACE_MS', 30_000, 0, 3_600_000),
    logLevel,
  };
  return { ...config, ...stripUndefined(overrides) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Folders of the home, in creation order; `secrets` is private to the owner. */
export function homeFolders(config: Pick<Config, 'home'>): { path: string; mode: number }[] {
  return [
    { path: config.home, mode: 0o755 },
    { path: path.join(config.home, 'data'), mode: 0o755 },
    { path: path.join(config.home, 'artifacts'), mode: 0o755 },
    { path: path.join(config.home, 'secrets'), mode: 0o700 },
    { path: path.join(config.home, 'codebases'), mode: 0o755 },
  ];
}
