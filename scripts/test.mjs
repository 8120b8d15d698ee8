#!/usr/bin/env node
// Runs every compiled uvu suite (dist/test/**/*.test.js) in its own child process, a few at a time, and ends
// with the plain line `N passed, N failed` that CI reads. Arguments filter files by substring:
//   npm test -- queue server/auth
// A file that dies without uvu's summary (crash, time-out) counts as one failure, so nothing fails silently.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const testRoot = path.join(root, 'dist', 'test');
const filters = process.argv.slice(2);
const concurrency = Number(process.env.TEST_CONCURRENCY || Math.max(2, Math.min(3, os.availableParallelism?.() ?? 2)));
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_MS || 300_000);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'fixtures') out.push(...walk(p));
    } else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const files = walk(testRoot)
  .filter((f) => filters.length === 0 || filters.some((x) => path.relative(testRoot, f).includes(x)))
  .sort((a, b) => (a.includes('/e2e/') ? 1 : 0) - (b.includes('/e2e/') ? 1 : 0) || a.localeCompare(b));

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const started = Date.now();

function runFile(file) {
  return new Promise((resolve) => {
    const rel = path.relative(testRoot, file);
    const t0 = Date.now();
    const child = spawn(process.execPath, [file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let lingerTimer;
    const onData = (d) => {
      out += d;
      // uvu printed its summary but the process stays (a child or socket a failed test left open keeps the
      // event loop alive): the counts are final, so reap it after a short grace instead of the full time-out.
      if (!lingerTimer && /^\s*Duration:/m.test(out)) {
        lingerTimer = setTimeout(() => {
          out += `\n[test runner] ${rel} still running 10 s after its summary; killed (something it started was left open)\n`;
          try { process.kill(-child.pid, 'SIGKILL'); } catch {}
        }, 10_000);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => {
      out += `\n[test runner] ${rel} exceeded ${fileTimeoutMs} ms; killed\n`;
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    }, fileTimeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(lingerTimer);
      // Whatever the file left behind in its process group goes too.
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
      const num = (label) => {
        const m = new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'm').exec(out);
        return m ? Number(m[1]) : undefined;
      };
      const total = num('Total');
      const ok = num('Passed');
      const skip = num('Skipped') ?? 0;
      let p = 0;
      let f = 0;
      if (total === undefined || ok === undefined) {
        f = 1;
      } else {
        p = ok;
        f = total - ok - skip;
        if (code !== 0 && f === 0) f = 1;
      }
      passed += p;
      failed += f;
      skipped += skip;
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`${f ? 'FAIL' : 'ok  '} ${rel} (${p} passed${f ? `, ${f} failed` : ''}${skip ? `, ${skip} skipped` : ''}, ${secs}s)\n`);
      if (f) failures.push({ rel, out });
      resolve();
    });
  });
}

const queue = [...files];
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (queue.length) await runFile(queue.shift());
  }),
);

for (const { rel, out } of failures) {
  process.stdout.write(`\n===== ${rel} =====\n${out.slice(-8000)}\n`);
}
process.stdout.write(`\n${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
if (files.length === 0) {
  process.stdout.write('no test files matched\n');
  failed += filters.length ? 0 : 1;
}
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed ? 1 : 0);
