/** A fingerprint of a git repository's working tree, index, refs and HEAD, to prove it was not changed. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

function walk(dir: string, base: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    const rel = path.relative(base, p);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out.push(`${rel} -> ${readlinkSync(p)}`);
    else if (st.isDirectory()) walk(p, base, out);
    else out.push(`${rel} ${st.mode.toString(8)} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
  }
}

/** Hashes every file under the repository, .git included (index, refs, HEAD, objects, config). */
export function repoFingerprint(repo: string): string {
  const out: string[] = [];
  walk(repo, repo, out);
  return createHash('sha256').update(out.join('\n')).digest('hex');
}
