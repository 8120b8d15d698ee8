/**
 * Shared fixture of the fault suites: an engine home (test/queue/fixture.ts: migrated database, git workspace,
 * fake CLIs on PATH with WFCTL_FAKE_LOG) plus real `wfctl worker` / `wfctl serve` child processes on that
 * home, their exits, and the fake log read per node.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getJob } from '../../sql/jobs.js';
import { createSession } from '../../sql/sessions.js';
import { createUser } from '../../sql/users.js';
import { stmt } from '../../sql/stmt.js';
import { spawnTracked, testEnv, waitFor, WFCTL_BIN } from '../helpers.js';
import { promptOf, type EngineFixture } from '../queue/fixture.js';

export interface Proc {
  child: ChildProcess;
  pid: number;
  /** stdout + stderr so far. */
  out(): string;
  /** Exit code (or 128 + signal number) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `wfctl <args>` on the fixture's home with extra environment. */
export function wfctl(f: EngineFixture, args: string[], env: Record<string, string | undefined> = {}): Proc {
  const child = spawnTracked(process.execPath, [WFCTL_BIN, ...args], {
    env: testEnv(f.config.home, { WFCTL_FAKE_LOG: f.fakeLog, WFCTL_SWEEP_MS: '200', ...env }),
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return { child, pid: child.pid!, out: () => out, exited };
}

/** SIGKILLs a process (and its group) if it is still running. */
export function kill(p: Proc): void {
  try {
    process.kill(-p.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** Fake-log records whose prompt contains `marker` (one per invocation that wrote its line). */
export function invocationsOf(f: EngineFixture, marker: string) {
  return f.invocations().filter((i) => promptOf(i.argv).includes(marker));
}

/**
 * The pid of the agent running for `nodeId` of run `runId`, once the agent has printed its first message (the
 * fake CLI installs its signal handling right then, so a signal from now on is handled as scripted).
 */
export async function runningAgentPid(f: EngineFixture, runId: string, nodeId: string, timeoutMs = 15_000): Promise<number> {
  return waitFor(() => {
    const r = stmt(f.db, `SELECT a.pid FROM agent_runs a WHERE a.run_id = ? AND a.node_id = ? AND a.status = 'running' AND a.pid IS NOT NULL
      AND EXISTS (SELECT 1 FROM agent_messages m WHERE m.agent_run_id = a.id) ORDER BY a.started_at DESC LIMIT 1`).get(runId, nodeId) as { pid: number } | undefined;
    return r?.pid;
  }, timeoutMs, 20, `an agent of node ${nodeId} to run`);
}

/** Steps of a node, oldest attempt first. */
export function stepsOf(f: EngineFixture, runId: string, nodeId: string): Array<{ attempt: number; status: string; error: string | null }> {
  return stmt(f.db, 'SELECT attempt, status, error FROM workflow_step_runs WHERE run_id = ? AND node_id = ? ORDER BY attempt').all(runId, nodeId) as never;
}

/** The jobs of a run, oldest first. */
export function jobsOf(f: EngineFixture, runId: string): Array<ReturnType<typeof getJob> & {}> {
  return stmt(f.db, 'SELECT * FROM jobs WHERE run_id = ? ORDER BY id').all(runId) as never;
}

/** Peak and samples of a process's resident memory (VmRSS, kB) read from /proc while `until` is pending. */
export function sampleRss(pid: number, everyMs = 50): { stop(): number; peakKb(): number; samples(): number } {
  let peak = 0;
  let n = 0;
  const t = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) {
        peak = Math.max(peak, Number(m[1]));
        n++;
      }
    } catch {
      /* the process is gone */
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(t);
      return peak;
    },
    peakKb: () => peak,
    samples: () => n,
  };
}

/** An admin account and a session token for it, written straight into the fixture's database. */
export async function adminToken(f: EngineFixture, username = 'admin'): Promise<string> {
  const user = await createUser(f.db, { username, password: 'correct horse battery', role: 'admin' });
  return createSession(f.db, user.id).token;
}

/** The base URL a `wfctl serve` child printed once it listens. */
export function serveUrl(p: Proc, timeoutMs = 20_000): Promise<string> {
  return waitFor(() => /wfctl serving (http:\/\/\S+)/.exec(p.out())?.[1], timeoutMs, 20, `wfctl serve to listen (output: ${p.out()})`);
}

/** fetch with a bearer token and a JSON body; resolves with the status and the parsed (or raw) body. */
export async function api(url: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any; text: string }> {
  const r = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await r.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body, text };
}
