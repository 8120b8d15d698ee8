/**
 * Shared fixture of the engine suites: a migrated home, a git repository as the workspace, the fake agent CLIs
 * on PATH with an invocation log and a state folder, graph builders, and waits on run status.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config.js';
import type { Graph, GraphEdge, GraphNode, NodeData, NodeType } from '../../core/graph.js';
import { createRun } from '../../queue/lifecycle.js';
import { Scheduler, type SchedulerOptions } from '../../queue/scheduler.js';
import type { DB } from '../../sql/db.js';
import { getRun, type RunRow } from '../../sql/runs.js';
import { FAKE_BIN, gitRepo, tempDir, testConfig, testDb, waitFor } from '../helpers.js';

export interface FakeInvocation {
  agent: string;
  argv: string[];
  cwd: string;
  pid: number;
  start: number;
  end: number | null;
  exit?: number;
}

export interface EngineFixture {
  db: DB;
  config: Config;
  repo: string;
  fakeLog: string;
  invocations(): FakeInvocation[];
  /** Prompts given to the fake agents, in invocation order. */
  prompts(): string[];
}

/** Sets up the home and points this process's children (the fake agents) at the log and state folders. */
export function engineFixture(overrides: Partial<Config> = {}): EngineFixture {
  const { db, config } = testDb(testConfig({ leaseMs: 5000, sweepIntervalMs: 200, maxAgents: 4, ...overrides }));
  const scratch = tempDir('wfctl-fake-');
  const fakeLog = path.join(scratch, 'fake.log');
  process.env.PATH = `${FAKE_BIN}:${(process.env.PATH ?? '').split(':').filter((p) => p !== FAKE_BIN).join(':')}`;
  process.env.WFCTL_FAKE_LOG = fakeLog;
  process.env.WFCTL_FAKE_STATE = path.join(scratch, 'state');
  const repo = gitRepo();
  const invocations = () =>
    existsSync(fakeLog) ? readFileSync(fakeLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FakeInvocation) : [];
  return {
    db, config, repo, fakeLog, invocations,
    prompts: () => invocations().map((i) => promptOf(i.argv)),
  };
}

/** The prompt argument of a fake claude invocation (`-p <prompt>`). */
export function promptOf(argv: string[]): string {
  const i = argv.findIndex((a) => a === '-p' || a === '--print');
  if (i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) return argv[i + 1];
  return argv.reduce((a, b) => (b.length > a.length ? b : a), '');
}

export function node(id: string, objective = `work on ${id}`, data: Partial<NodeData> = {}, type: NodeType = 'specialistAgent'): GraphNode {
  return { id, type, data: { label: id.toUpperCase(), objective, ...data } };
}

export function edge(source: string, target: string, sourceHandle?: string): GraphEdge {
  return { id: `${source}->${target}${sourceHandle ? ':' + sourceHandle : ''}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) };
}

/** A parallel_delegation supervisor `sup` at the root, fanning out to `ids`. */
export function parallelFan(ids: Array<[string, string]>, strategy: 'parallel_delegation' | 'sequential_delegation' = 'parallel_delegation'): Graph {
  return {
    nodes: [node('sup', 'plan [[fake:answer=plan ready]]', { delegationStrategy: strategy }, 'supervisorAgent'), ...ids.map(([id, obj]) => node(id, obj))],
    edges: ids.map(([id]) => edge('sup', id)),
  };
}

export function startRun(f: EngineFixture, graph: Graph, opts: { write?: boolean } = {}): string {
  return createRun(f.db, { workflowId: null, workflowName: 'test workflow', graph, workspacePath: f.repo, sandbox: false, write: opts.write }).id;
}

export function scheduler(f: EngineFixture, opts: SchedulerOptions = {}): Scheduler {
  return new Scheduler(f.db, f.config, opts).start();
}

export async function waitStatus(db: DB, runId: string, statuses: string[], timeoutMs = 20_000): Promise<RunRow> {
  return waitFor(() => {
    const r = getRun(db, runId);
    return r && statuses.includes(r.status) ? r : undefined;
  }, timeoutMs, 20, `run ${runId} to be ${statuses.join(' or ')} (now ${getRun(db, runId)?.status})`);
}

/** Largest number of invocations running at the same moment, from their start/end timestamps. */
export function maxOverlap(inv: FakeInvocation[]): number {
  const points = inv.flatMap((i) => [[i.start, 1], [i.end ?? Number.MAX_SAFE_INTEGER, -1]] as Array<[number, number]>);
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of points) max = Math.max(max, (cur += d));
  return max;
}
