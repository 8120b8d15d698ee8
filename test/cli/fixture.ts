/**
 * Shared fixture of the `wfctl run` suites: a seeded home whose codebases/ root holds an approved git
 * repository, workflows inserted through sql/workflows.ts, the fake agents on PATH with an invocation log and
 * a state folder, and helpers to run or spawn the real built binary against that home.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync, type ChildProcess } from 'node:child_process';
import type { Config } from '../../core/config.js';
import type { Graph, GraphEdge, GraphNode, NodeData, NodeType } from '../../core/graph.js';
import type { DB } from '../../sql/db.js';
import { insertWorkflow } from '../../sql/workflows.js';
import { spawnTracked, testConfig, testDb, tempDir, testEnv, WFCTL_BIN } from '../helpers.js';

export interface FakeInvocation {
  agent: string;
  argv: string[];
  pid: number;
  child_pid?: number;
  end: number | null;
}

export interface CliHome {
  db: DB;
  config: Config;
  home: string;
  /** A git repository under $home/codebases (approved by the workspace root). */
  repo: string;
  fakeLog: string;
  env: NodeJS.ProcessEnv;
  workflow(name: string, graph: Graph): string;
  invocations(): FakeInvocation[];
}

export function cliHome(extraEnv: Record<string, string | undefined> = {}): CliHome {
  const { db, config } = testDb(testConfig());
  const scratch = tempDir('wfctl-cli-');
  const fakeLog = path.join(scratch, 'fake.log');
  const state = path.join(scratch, 'state');
  mkdirSync(state);
  const repo = path.join(config.home, 'codebases', 'app');
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'wfctl test');
  spawnSync('sh', ['-c', 'echo "# app" > README.md'], { cwd: repo });
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const env = testEnv(config.home, { WFCTL_FAKE_LOG: fakeLog, WFCTL_FAKE_STATE: state, WFCTL_SWEEP_MS: '1000', ...extraEnv });
  return {
    db, config, home: config.home, repo, fakeLog, env,
    workflow: (name, graph) => insertWorkflow(db, { kind: 'user', name, graph }).id,
    invocations: () => (existsSync(fakeLog) ? readFileSync(fakeLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FakeInvocation) : []),
  };
}

export function node(id: string, objective: string, data: Partial<NodeData> = {}, type: NodeType = 'specialistAgent'): GraphNode {
  return { id, type, data: { label: id.toUpperCase(), objective, sandboxAgent: 'claude', ...data } };
}

export function edge(source: string, target: string): GraphEdge {
  return { id: `${source}->${target}`, source, target };
}

/** a → b, both agents. */
export function chain(objA: string, objB: string): Graph {
  return { nodes: [node('a', objA), node('b', objB)], edges: [edge('a', 'b')] };
}

/** The lines of a text without ANSI escape sequences. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/** A child process whose combined output is collected; `exit` resolves with its code. */
export interface Proc {
  child: ChildProcess;
  out(): string;
  exit: Promise<number | null>;
}

export function start(cmd: string, args: string[], env: NodeJS.ProcessEnv, stdin: 'pipe' | 'ignore' = 'ignore'): Proc {
  const child = spawnTracked(cmd, args, { env, stdio: [stdin, 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, exit };
}

/** wfctl under a real pseudo-terminal of 120 columns (script(1)). */
export function inPty(h: CliHome, args: string[], env: NodeJS.ProcessEnv = h.env): Proc {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return start('script', ['-qefc', `stty cols 120 rows 40; ${[process.execPath, WFCTL_BIN, ...args].map(q).join(' ')}`, '/dev/null'], { ...env, TERM: 'xterm-256color' }, 'pipe');
}
