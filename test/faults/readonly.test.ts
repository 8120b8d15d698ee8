/**
 * The database's folder turns read-only while `wfctl serve` runs: clear errors (API 503 in the error shape,
 * one log line from the scheduler), no crash, no corruption (PRAGMA integrity_check = ok), recovery once it
 * is writable again.
 *
 * HOW THE FAULT IS MADE (measured on this machine, as root in a container):
 * - A read-only bind remount (`unshare --mount` + `mount -o remount,bind,ro <data>`) is refused with EBUSY
 *   ("mount point is busy") while any process holds a file of that mount open for writing, which the server
 *   always does (app.db, -wal, -shm). The kernel only lets a mount go read-only under open writers on its own
 *   (ext4 errors=remount-ro after I/O errors).
 * - chmod 555 on the folder and 444 on the files, with the server running unprivileged (setpriv
 *   --reuid=65534), changes nothing: permissions are checked at open(), and SQLite in WAL mode writes through
 *   the descriptors it already has (inserts and even wal_checkpoint(TRUNCATE) kept succeeding).
 * So the test injects what a read-only file system answers, EROFS, into the server process itself: a tiny
 * LD_PRELOAD library (compiled here with the system C compiler) makes write / pwrite / ftruncate / fallocate on
 * any descriptor whose path is under the data folder fail with EROFS while a flag file exists. SQLite then sees
 * exactly the failed writes of a file system gone read-only (SQLITE_IOERR_WRITE), with the process running,
 * and the flag's removal is the file system becoming writable again. Reads keep working, as on a read-only
 * mount.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { approveWorkspace } from '../../workers/workspace.js';
import { tempDir, waitFor } from '../helpers.js';
import { edge, engineFixture, node } from '../queue/fixture.js';
import { adminToken, api, kill, runningAgentPid, serveUrl, stepsOf, wfctl, type Proc } from './fixture.js';

const SHIM_C = String.raw`
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
static int blocked(int fd) {
  const char *flag = getenv("WFCTL_FAULT_EROFS_FLAG"), *dir = getenv("WFCTL_FAULT_EROFS_DIR");
  struct stat st;
  char link[64], target[4096];
  ssize_t n;
  if (!flag || !dir || stat(flag, &st) != 0) return 0;
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return 0;
  target[n] = 0;
  return strncmp(target, dir, strlen(dir)) == 0;
}
#define WRAP(ret, name, params, args) \
  ret name params { \
    static ret (*real) params; \
    if (!real) real = (ret (*) params)dlsym(RTLD_NEXT, #name); \
    if (blocked(fd)) { errno = EROFS; return -1; } \
    return real args; \
  }
WRAP(ssize_t, write, (int fd, const void *b, size_t n), (fd, b, n))
WRAP(ssize_t, pwrite, (int fd, const void *b, size_t n, off_t o), (fd, b, n, o))
WRAP(ssize_t, pwrite64, (int fd, const void *b, size_t n, off64_t o), (fd, b, n, o))
WRAP(int, ftruncate, (int fd, off_t l), (fd, l))
WRAP(int, ftruncate64, (int fd, off64_t l), (fd, l))
WRAP(int, fallocate, (int fd, int m, off_t o, off_t l), (fd, m, o, l))
WRAP(int, fallocate64, (int fd, int m, off64_t o, off64_t l), (fd, m, o, l))
`;

function buildShim(): string {
  const dir = tempDir('wfctl-erofs-');
  writeFileSync(path.join(dir, 'erofs.c'), SHIM_C);
  const so = path.join(dir, 'erofs.so');
  const r = spawnSync('cc', ['-shared', '-fPIC', '-O1', '-o', so, path.join(dir, 'erofs.c'), '-ldl'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`this test needs a C compiler (cc) to build its EROFS injector: ${r.error?.message ?? r.stderr}`);
  return so;
}

const ReadOnly = suite('faults/readonly');
const procs: Proc[] = [];
ReadOnly.after.each(() => {
  for (const p of procs.splice(0)) kill(p);
});

ReadOnly('data folder read-only at run time :: 503s and one log line, no crash, integrity ok, the run completes once writable again', async () => {
  const f = engineFixture();
  const token = await adminToken(f);
  approveWorkspace(f.db, f.repo);
  const dataDir = realpathSync(path.dirname(f.config.dbPath));
  const flag = path.join(tempDir('wfctl-flag-'), 'read-only');
  const serve = wfctl(f, ['serve', '--port', '0'], {
    LD_PRELOAD: buildShim(), WFCTL_FAULT_EROFS_DIR: dataDir, WFCTL_FAULT_EROFS_FLAG: flag,
    WFCTL_LEASE_MS: '1500', WFCTL_LOG_LEVEL: 'warn',
  });
  procs.push(serve);
  const url = await serveUrl(serve);
  const wf = await api(`${url}/api/workflows`, token, { method: 'POST', body: { name: 'ro', graph: { nodes: [node('a', 'ro-a [[fake:sleep=2]]'), node('b', 'ro-b')], edges: [edge('a', 'b')] } } });
  assert.is(wf.status, 201, wf.text);
  const started = await api(`${url}/api/workflow-runs`, token, { method: 'POST', body: { workflow_id: wf.body.id, workspace_path: f.repo } });
  assert.is(started.status, 201, started.text);
  const runId = started.body.run_id as string;
  await runningAgentPid(f, runId, 'a');

  // The folder turns read-only while node a runs: its completion cannot be recorded.
  writeFileSync(flag, '');
  const write = await api(`${url}/api/workflows`, token, { method: 'POST', body: { name: 'while read-only', graph: { nodes: [node('x')], edges: [] } } });
  assert.is(write.status, 503, write.text);
  assert.is(write.body.code, 'DATABASE_UNAVAILABLE');
  assert.is(write.body.statusCode, 503);
  assert.match(write.body.message, /database/i);
  assert.not.match(write.text, /SqliteError|at .*\.js:\d+/);
  // Reads still answer while writes fail.
  const read = await api(`${url}/api/workflow-runs/${runId}`, token);
  assert.is(read.status, 200, read.text);
  // Node a ends (about 2 s) while writes fail; the scheduler reports it and keeps running.
  await waitFor(() => /database/i.test(serve.out()) && /scheduler/i.test(serve.out()), 15_000, 50, `a scheduler log line about the database (output: ${serve.out()})`);
  const health = await fetch(`${url}/api/health`);
  assert.ok(health.status === 200 || health.status === 503, `health answers (${health.status})`);

  // Writable again: the server recovers without a restart and the run finishes.
  rmSync(flag);
  const again = await api(`${url}/api/workflows`, token, { method: 'POST', body: { name: 'after recovery', graph: { nodes: [node('y')], edges: [] } } });
  assert.is(again.status, 201, again.text);
  const done = await waitFor(async () => {
    const r = await api(`${url}/api/workflow-runs/${runId}`, token);
    return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : undefined;
  }, 30_000, 100, 'the run to finish after recovery');
  assert.is(done.status, 'completed', JSON.stringify(done));
  assert.equal(stepsOf(f, runId, 'b').map((s) => s.status), ['completed']);
  assert.is(serve.child.exitCode, null, `serve kept running: ${serve.out()}`);
  // Each line the server printed is one line (no stack traces).
  assert.not.match(serve.out(), /\n\s+at .*\.js:\d+/);

  serve.child.kill('SIGTERM');
  assert.equal(await serve.exited, { code: 0, signal: null }, serve.out());
  const check = new Database(f.config.dbPath, { readonly: true });
  try {
    assert.is(check.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    check.close();
  }
});

ReadOnly.run();
