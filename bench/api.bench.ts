/**
 * HTTP load test (`npm run bench:api`): a real server (startServer, embedded scheduler, port 0, temporary home)
 * with a run executing (a fake agent sleeping in its second node), then autocannon against
 *   GET /api/workflow-runs/{id}, GET /api/workflow-runs/{id}/logs, GET /api/workflows
 * for BENCH_SECONDS (default 10) each with BENCH_CONNECTIONS (default 8), after an unmeasured warm-up of
 * BENCH_WARMUP_SECONDS (default 3) per endpoint. Prints requests/s and p50/p99
 * latency per endpoint, and the server's CPU time per request (this process's CPU time over the run, divided by
 * the requests: a figure that does not depend on how busy the rest of the machine is). The load generator runs
 * in a child process so it shares neither the server's event loop nor its CPU accounting.
 * Aim (issue 9): ≥ 5,000 requests/s for the run read, p99 < 25 ms on a 2-core machine.
 */
import { fork, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import { loadConfig } from '../core/config.js';
import { packageRoot } from '../core/paths.js';
import { startServer } from '../server/server.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 8);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 3);

async function json(url: string, init: RequestInit & { token?: string } = {}): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const r = await fetch(url, { ...init, headers });
  const body = await r.json();
  if (r.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

/** Runs autocannon in a child process (this file with --load) and returns its result. */
function load(opts: Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--load'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as Result));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
    child.send(opts);
  });
}

async function main(): Promise<void> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'wfctl-bench-'));
  // The fake agent CLIs stand in for claude (test/fixtures/bin); the repo lives under the approved roots.
  process.env.PATH = `${path.join(packageRoot(), 'test', 'fixtures', 'bin')}:${process.env.PATH}`;
  const repo = path.join(home, 'codebases', 'demo');
  mkdirSync(repo, { recursive: true });
  writeFileSync(path.join(repo, 'README.md'), '# demo\n');
  for (const args of [['init', '-q', '-b', 'main'], ['-c', 'user.email=b@example.com', '-c', 'user.name=bench', 'add', '-A'], ['-c', 'user.email=b@example.com', '-c', 'user.name=bench', 'commit', '-q', '-m', 'init']]) {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  }
  const config = loadConfig({ ...process.env, WFCTL_HOME: home, WFCTL_DB: undefined, WFCTL_LOG_LEVEL: 'silent', WFCTL_SHUTDOWN_GRACE_MS: '2000' }, { port: 0, host: '127.0.0.1', logLevel: 'silent' });
  const server = await startServer(config, { stdout: new Writable({ write: (_c, _e, cb) => cb() }) });
  try {
    const base = server.url;
    const { token } = await json(`${base}/api/auth/bootstrap`, { method: 'POST', body: JSON.stringify({ username: 'bench', password: 'bench password 1' }) });
    const graph = {
      nodes: [
        { id: 'plan', type: 'specialistAgent', data: { label: 'Plan', objective: 'plan the work' } },
        { id: 'build', type: 'specialistAgent', data: { label: 'Build', objective: 'build it [[fake:sleep=600]]' } },
      ],
      edges: [{ id: 'plan->build', source: 'plan', target: 'build' }],
    };
    const wf = await json(`${base}/api/workflows`, { method: 'POST', token, body: JSON.stringify({ name: 'bench', graph }) });
    for (let i = 0; i < 20; i++) {
      await json(`${base}/api/workflows`, { method: 'POST', token, body: JSON.stringify({ name: `bench ${i}`, graph }) });
    }
    const run = await json(`${base}/api/workflow-runs`, { method: 'POST', token, body: JSON.stringify({ workflow_id: wf.id, workspace_path: repo }) });
    // Wait until the second node's agent is running: the run is mid-execution for the whole measurement.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const v = await json(`${base}/api/workflow-runs/${run.run_id}`, { token });
      if (v.steps.some((s: { node_id: string; status: string }) => s.node_id === 'build' && s.status === 'running')) break;
      if (v.status !== 'running' && v.status !== 'queued') throw new Error(`bench run ended early: ${v.status} ${v.error}`);
      if (Date.now() > deadline) throw new Error('bench run did not reach its second node');
      await new Promise((r) => setTimeout(r, 100));
    }

    const endpoints: Array<[string, string]> = [
      ['GET /api/workflow-runs/{id}', `/api/workflow-runs/${run.run_id}`],
      ['GET /api/workflow-runs/{id}/logs', `/api/workflow-runs/${run.run_id}/logs`],
      ['GET /api/workflows', '/api/workflows'],
    ];
    process.stdout.write(`api load test: ${SECONDS} s per endpoint, ${CONNECTIONS} connections, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}\n`);
    process.stdout.write(`${'endpoint'.padEnd(36)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(11)} ${'non-2xx'.padStart(8)} ${'errors'.padStart(7)}\n`);
    if (process.env.BENCH_DEBUG) {
      const c0 = process.cpuUsage();
      await new Promise((r) => setTimeout(r, 5000));
      const c = process.cpuUsage(c0);
      process.stdout.write(`idle server: ${((c.user + c.system) / 5000).toFixed(0)} µs CPU per ms of wall time\n`);
      for (const [name, p] of endpoints) {
        const r = await fetch(base + p, { headers: { authorization: `Bearer ${token}` } });
        process.stdout.write(`  ${name}: ${(await r.arrayBuffer()).byteLength} bytes\n`);
      }
      for (const suffix of ['', '-wal', '-shm']) {
        const st = statSync(config.dbPath + suffix, { throwIfNoEntry: false });
        process.stdout.write(`  ${path.basename(config.dbPath)}${suffix}: ${st ? `${Math.round(st.size / 1024)} kB` : 'absent'}\n`);
      }
    }
    // Warm-up, not measured: the server just started, and a cold JIT made the first endpoint measured look
    // twice as expensive as the same endpoint a few seconds later.
    for (const [, p] of endpoints) await load({ url: base + p, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers: { authorization: `Bearer ${token}` } });
    for (const [name, p] of endpoints) {
      const cpu0 = process.cpuUsage();
      const r = await load({ url: base + p, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${token}` } });
      const cpu = process.cpuUsage(cpu0);
      const perReq = (cpu.user + cpu.system) / Math.max(1, r.requests.total);
      if (process.env.BENCH_DEBUG) process.stdout.write(`user ${(cpu.user / r.requests.total).toFixed(0)} µs, system ${(cpu.system / r.requests.total).toFixed(0)} µs\n`);
      process.stdout.write(`${name.padEnd(36)} ${Math.round(r.requests.average).toString().padStart(8)} ${r.latency.p50.toFixed(1).padStart(7)} ${r.latency.p99.toFixed(1).padStart(7)} ${perReq.toFixed(0).padStart(11)} ${String(r.non2xx).padStart(8)} ${String(r.errors + r.timeouts).padStart(7)}\n`);
    }
    await fetch(`${base}/api/workflow-runs/${run.run_id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--load') {
  process.once('message', (opts) => {
    autocannon(opts as Options).then((r) => process.send!(r, () => process.exit(0)), (e) => {
      process.stderr.write(`load generator failed: ${(e as Error).message}\n`);
      process.exit(1);
    });
  });
} else main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`api bench failed: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);
