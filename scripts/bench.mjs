#!/usr/bin/env node
// Runs every compiled benchmark (dist/bench/*.bench.js), one after another so they do not disturb each
// other, each printing its own figures. Arguments filter by file name: npm run bench -- queue
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.join(root, 'dist', 'bench');
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js') && !f.startsWith('api'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f.replace(/\.bench\.js$/, '')}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', path.join(dir, f)], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
