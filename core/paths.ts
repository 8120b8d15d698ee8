/** Locating the package's own files (migrations, seed data, web bundle) from compiled or source code. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding wfctl's package.json, found by walking up from this module. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj) && JSON.parse(readFileSync(pj, 'utf8')).name === 'wfctl') return (cached = dir);
    const up = path.dirname(dir);
    if (up === dir) throw new Error('wfctl package root not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** The compiled JavaScript tree (dist/) that a worker thread or child process loads. */
export function distRoot(): string {
  return path.join(packageRoot(), 'dist');
}
