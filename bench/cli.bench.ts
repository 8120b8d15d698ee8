/**
 * Start-up cost of the terminal command (`npm run bench -- cli`), printed in ms, median of BENCH_SPAWNS
 * (default 10) spawns each:
 *   - `wfctl --help`: the whole command tree is registered, so this measures how light the command modules
 *     are at import time (heavy imports belong inside run()); target < 300 ms;
 *   - `node -e 0`: the bare Node start-up on this machine, the floor under any figure above;
 *   - `wfctl run <missing>`: start-up plus config, opening and migrating the database, workflow lookup.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../core/paths.js';

const SPAWNS = Number(process.env.BENCH_SPAWNS || 10);
const BIN = path.join(packageRoot(), 'dist', 'cli', 'bin.js');
const TARGET_MS = 300;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function time(args: string[], env: NodeJS.ProcessEnv, okCodes: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    out.push(performance.now() - t0);
    if (!okCodes.includes(r.status ?? -1)) throw new Error(`${args.join(' ')} exited ${r.status}`);
  }
  return out;
}

const home = mkdtempSync(path.join(os.tmpdir(), 'wfctl-bench-cli-'));
try {
  const env = { ...process.env, WFCTL_HOME: home, NO_COLOR: '1' };
  time([BIN, '--help'], env, [0]); // warm the file cache
  const rows: Array<[string, number[]]> = [
    ['node -e 0', time(['-e', '0'], env, [0])],
    ['wfctl --help', time([BIN, '--help'], env, [0])],
    ['wfctl run <missing workflow>', time([BIN, 'run', 'no-such-workflow', '--repo', home], env, [3])],
  ];
  console.log(`${'command'.padEnd(30)} ${'median'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}   (ms, ${SPAWNS} spawns, load ${os.loadavg()[0].toFixed(1)})`);
  for (const [name, xs] of rows) {
    console.log(`${name.padEnd(30)} ${median(xs).toFixed(1).padStart(8)} ${Math.min(...xs).toFixed(1).padStart(8)} ${Math.max(...xs).toFixed(1).padStart(8)}`);
  }
  const help = median(rows[1][1]);
  console.log(`wfctl --help median ${help.toFixed(1)} ms: ${help < TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target (${(help - median(rows[0][1])).toFixed(1)} ms above bare node)`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
