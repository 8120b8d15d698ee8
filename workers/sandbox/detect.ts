/**
 * Which OS confinement this host offers for `runtime: direct` agents: bubblewrap on Linux (probed by really
 * running it, since user namespaces may be disabled), sandbox-exec on macOS, or none.
 */
import { spawnSync } from 'node:child_process';

export type SandboxKind = 'bwrap' | 'sandbox-exec' | 'none';

let cached: SandboxKind | undefined;

export function detectSandbox(refresh = false): SandboxKind {
  if (cached && !refresh) return cached;
  if (process.platform === 'darwin') {
    const r = spawnSync('sandbox-exec', ['-p', '(version 1)(allow default)', '/usr/bin/true'], { stdio: 'ignore', timeout: 5000 });
    cached = r.status === 0 ? 'sandbox-exec' : 'none';
  } else if (process.platform === 'linux') {
    const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--die-with-parent', 'true'], { stdio: 'ignore', timeout: 5000 });
    cached = r.status === 0 ? 'bwrap' : 'none';
  } else {
    cached = 'none';
  }
  return cached;
}
