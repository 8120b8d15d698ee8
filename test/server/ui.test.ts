import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import uiRoutes from '../../server/routes/ui.js';
import { makeApp } from './api-fixture.js';
import { tempDir } from '../helpers.js';

const SHELL = '<!doctype html><html><body><wf-app></wf-app><script type="module" src="/app.js"></script></body></html>';

async function uiApp(root: string) {
  const app = Fastify();
  await app.register(uiRoutes, { root });
  await app.ready();
  return app;
}

function builtRoot(): string {
  const root = tempDir('wfctl-ui-');
  writeFileSync(path.join(root, 'index.html'), SHELL);
  writeFileSync(path.join(root, 'app.js'), 'console.log("app")');
  writeFileSync(path.join(root, 'app.css'), 'body{}');
  mkdirSync(path.join(root, 'sub'));
  return root;
}

const Ui = suite('server/ui');

Ui('ui :: the bundle files are served with their types', async () => {
  const app = await uiApp(builtRoot());
  const js = await app.inject({ url: '/app.js' });
  assert.is(js.statusCode, 200);
  assert.match(String(js.headers['content-type']), /javascript/);
  assert.is(js.body, 'console.log("app")');
  const css = await app.inject({ url: '/app.css' });
  assert.match(String(css.headers['content-type']), /text\/css/);
  await app.close();
});

Ui('ui :: every non-/api path answers the app shell, so deep links work', async () => {
  const app = await uiApp(builtRoot());
  for (const url of ['/', '/login', '/workflows/new', '/workflows/abc/edit', '/workflow-runs/123?x=1', '/settings/users', '/runs', '/approvals', '/sub']) {
    const r = await app.inject({ url });
    assert.is(r.statusCode, 200, url);
    assert.match(String(r.headers['content-type']), /text\/html/, url);
    assert.is(r.body, SHELL, url);
  }
  await app.close();
});

Ui('ui :: paths that try to leave the bundle folder get the shell, never the file', async () => {
  const outer = tempDir('wfctl-ui-outer-');
  const root = path.join(outer, 'dist');
  mkdirSync(root);
  writeFileSync(path.join(root, 'index.html'), SHELL);
  writeFileSync(path.join(outer, 'secret.txt'), 'top secret');
  const app = await uiApp(root);
  for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/sub/..%2f..%2fsecret.txt']) {
    const r = await app.inject({ url });
    assert.not.match(r.body, /top secret/, url);
  }
  await app.close();
});

Ui('ui :: /api paths stay JSON 404s', async () => {
  const app = await uiApp(builtRoot());
  const r = await app.inject({ url: '/api/nope/deeper' });
  assert.is(r.statusCode, 404);
  assert.is(r.json().code, 'NOT_FOUND');
  assert.is((await app.inject({ url: '/api' })).statusCode, 404);
  await app.close();
});

Ui('ui :: without a build, a 503 page says to run npm run build', async () => {
  const app = await uiApp(tempDir('wfctl-ui-empty-'));
  for (const url of ['/', '/workflow-runs/1']) {
    const r = await app.inject({ url });
    assert.is(r.statusCode, 503);
    assert.match(String(r.headers['content-type']), /text\/html/);
    assert.match(r.body, /npm run build/);
  }
  await app.close();
});

Ui('ui :: in the production app the shell needs no token and unknown /api GETs are JSON 404 behind auth', async () => {
  const f = await makeApp({ users: false });
  const shell = await f.req({ url: '/workflow-runs/abc' });
  assert.ok([200, 503].includes(shell.statusCode), `got ${shell.statusCode}`);
  assert.match(String(shell.headers['content-type']), /text\/html/);
  const api = await f.req({ url: '/api/definitely-not-a-route' });
  assert.is(api.statusCode, 404);
  assert.is(api.json().code, 'NOT_FOUND');
  const health = await f.req({ url: '/api/health' });
  assert.match(String(health.headers['content-type']), /json/);
  await f.close();
});

Ui.run();
