// The deployment files, checked without a Docker engine: compose.yaml's structure (services, volumes,
// the read-only codebases mount, the health check, the optional worker) and the Dockerfile's stages.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers.js';

const Compose = suite('deploy/compose');
const compose = parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true });
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

const volumesOf = (svc: { volumes: string[] }) =>
  Object.fromEntries(svc.volumes.map((v) => {
    const [src, dst, mode] = v.split(':');
    return [dst, { src, mode: mode ?? 'rw' }];
  }));

Compose('compose :: the server service maps the four volumes, codebases read-only', () => {
  const svc = compose.services.wfctl;
  assert.ok(svc, 'service wfctl');
  assert.equal(volumesOf(svc), {
    '/app/data': { src: './data', mode: 'rw' },
    '/app/artifacts': { src: './artifacts', mode: 'rw' },
    '/app/secrets': { src: './secrets', mode: 'rw' },
    '/app/codebases': { src: './codebases', mode: 'ro' },
  });
});

Compose('compose :: the database lives at /app/data/app.db', () => {
  const env = compose.services.wfctl.environment;
  assert.is(env.WFCTL_HOME, '/app');
  assert.is(env.WFCTL_DB, '/app/data/app.db');
  assert.is(env.WFCTL_WORKSPACE_ROOTS, '/app/codebases');
  assert.is(env.WFCTL_HOST, '0.0.0.0');
});

Compose('compose :: a health check calls /api/health', () => {
  const hc = compose.services.wfctl.healthcheck;
  assert.ok(Array.isArray(hc.test) && hc.test[0] === 'CMD');
  assert.match(hc.test.join(' '), /http:\/\/127\.0\.0\.1:8080\/api\/health/);
  for (const k of ['interval', 'timeout', 'retries']) assert.ok(hc[k], k);
  assert.match(dockerfile, /HEALTHCHECK[\s\S]*\/api\/health/);
});

Compose('compose :: an optional worker runs `wfctl worker` on the same volumes', () => {
  const w = compose.services.worker;
  assert.equal(w.profiles, ['worker']);
  assert.equal(w.command, ['worker']);
  assert.equal(volumesOf(w), volumesOf(compose.services.wfctl));
  assert.is(w.environment.WFCTL_DB, '/app/data/app.db');
  assert.is(w.depends_on.wfctl.condition, 'service_healthy');
});

Compose('compose :: the server publishes 8080 on loopback and serves by default', () => {
  const svc = compose.services.wfctl;
  assert.equal(svc.ports, ['127.0.0.1:8080:8080']);
  assert.equal(svc.command, ['serve']);
  assert.ok(svc.build, 'built from the Dockerfile');
});

Compose('dockerfile :: multi-stage, slim runtime with git and bubblewrap, non-root', () => {
  const froms: string[] = dockerfile.match(/^FROM .+$/gm) ?? [];
  assert.is(froms.length, 2);
  assert.match(froms[0], /AS build/);
  assert.match(froms[1], /slim AS runtime/);
  const runtime = dockerfile.slice(dockerfile.indexOf(froms[1]!));
  assert.match(runtime, /apt-get install[^\n]*\bgit\b/);
  assert.match(runtime, /\bbubblewrap\b/);
  assert.match(runtime, /^USER wfctl$/m);
  assert.match(runtime, /COPY --from=build \/opt\/wfctl\/sql\/migrations/);
  assert.match(runtime, /COPY --from=build \/opt\/wfctl\/seed-data/);
  assert.match(runtime, /ENV WFCTL_HOME=\/app/);
});

Compose('dockerfile :: every folder the build compiles is copied into the build stage', () => {
  const tsconfig = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
  for (const dir of tsconfig.include as string[]) assert.match(dockerfile, new RegExp(`^COPY ${dir} \\./${dir}$`, 'm'), dir);
});

Compose('compose :: a real compose client accepts the file, where one is installed', () => {
  // Docker's `compose config` needs no engine. CI machines may lack a client; then the structural checks above stand alone.
  const candidates: Array<[string, string[]]> = [['docker', ['compose']], ['docker-compose', []]];
  for (const [bin, pre] of candidates) {
    const probe = spawnSync(bin, [...pre, 'version'], { encoding: 'utf8' });
    if (probe.status !== 0) continue;
    const r = spawnSync(bin, [...pre, '-f', path.join(ROOT, 'compose.yaml'), '--profile', 'worker', 'config', '-q'], { encoding: 'utf8', cwd: ROOT });
    assert.is(r.status, 0, `${bin} ${pre.join(' ')} config: ${r.stderr}`);
    return;
  }
});

Compose.run();
