#!/usr/bin/env node
// Bundles the Lit web UI (web-components/src/main.ts) with esbuild into web-components/dist/ (git-ignored),
// copies index.html, and reports the bundle's size, raw and gzipped (aim: under 300 KB gzipped).
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const src = path.join(root, 'web-components', 'src');
const out = path.join(root, 'web-components', 'dist');
const entry = path.join(src, 'main.ts');
if (!existsSync(entry)) {
  console.log('web UI: no sources (web-components/src/main.ts) yet; skipped');
  process.exit(0);
}
// The main tsconfig excludes web-components/: the browser code is type-checked here, with its own (DOM) config.
{
  const { spawnSync } = await import('node:child_process');
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'web-components', 'tsconfig.json'), '--noEmit'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('web UI: type errors (tsc -p web-components/tsconfig.json)');
    process.exit(1);
  }
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  outfile: path.join(out, 'app.js'),
  tsconfig: path.join(root, 'web-components', 'tsconfig.json'),
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(path.join(root, 'web-components', 'index.html'), path.join(out, 'index.html'));
let raw = 0;
let gz = 0;
for (const f of readdirSync(out)) {
  if (f.endsWith('.map')) continue;
  const buf = readFileSync(path.join(out, f));
  raw += buf.length;
  gz += gzipSync(buf, { level: 9 }).length;
}
console.log(`web UI bundle: ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzipped (aim < 300 KB gzipped)`);
