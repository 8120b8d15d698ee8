/**
 * Every route of the production app (buildApp, all plugins) refuses a request without a valid token, except the
 * public four of design.md §8 and non-API routes (the web UI shell). A route added later without thinking about
 * auth is protected by the hook; one marked public by mistake fails this suite.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { testDb } from '../helpers.js';

interface Route {
  method: string;
  url: string;
  public: boolean;
}

const EXPECTED_PUBLIC = ['GET /api/auth/status', 'GET /api/health', 'HEAD /api/auth/status', 'HEAD /api/health', 'POST /api/auth/bootstrap', 'POST /api/auth/login'];

/** Paths that must need a token: the API and the spec's unprefixed approval / planning aliases. */
const isProtectedArea = (url: string) => url.startsWith('/api') || url.startsWith('/workflow-runs') || url.startsWith('/workflows');

async function productionApp(extra?: (app: FastifyInstance) => void): Promise<{ app: FastifyInstance; routes: Route[] }> {
  const { db, config } = testDb();
  const routes: Route[] = [];
  const onRoute = (r: RouteOptions) => {
    for (const method of [r.method].flat()) routes.push({ method: String(method).toUpperCase(), url: r.url, public: r.config?.public === true });
  };
  const app = await buildApp({ db, config, scheduler: () => ({ status: 'disabled' }), sandbox: () => 'none' }, { onRoute });
  extra?.(app);
  await app.ready();
  // GET routes answer HEAD too; include them even if the hook did not report them.
  for (const r of [...routes]) {
    if (r.method === 'GET' && !routes.some((x) => x.method === 'HEAD' && x.url === r.url)) routes.push({ ...r, method: 'HEAD' });
  }
  return { app, routes };
}

/** A concrete path for a route pattern: every parameter and wildcard filled with a dummy value. */
function fill(url: string): string {
  return url
    .replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, (_m, re) => (re ? '1' : 'dummy-id'))
    .replace(/\*/g, 'x');
}

const publicApi = (routes: Route[]) => [...new Set(routes.filter((r) => r.public && isProtectedArea(r.url)).map((r) => `${r.method} ${r.url}`))].sort();

const Routes = suite('server/routes-auth');

Routes('routes :: the production app registers the API routes (the enumeration is not empty)', async () => {
  const { app, routes } = await productionApp();
  const keys = new Set(routes.map((r) => `${r.method} ${r.url}`));
  for (const k of ['GET /api/workflows', 'POST /api/users', 'DELETE /api/workflows/:id', 'PATCH /api/model-providers/:id', 'GET /api/workflow-runs/:id/memory', 'POST /api/auth/logout']) {
    assert.ok(keys.has(k), `missing ${k}`);
  }
  assert.ok(routes.length >= 30, `only ${routes.length} routes`);
  await app.close();
});

Routes('routes :: the public API routes are exactly health, auth status, bootstrap and login', async () => {
  const { app, routes } = await productionApp();
  assert.equal(publicApi(routes), EXPECTED_PUBLIC);
  await app.close();
});

Routes('routes :: every non-public route answers 401 without a token and with a bogus one', async () => {
  const { app, routes } = await productionApp();
  const bogus = [undefined, 'Bearer abcdefghijklmnopqrstuvwxyz234567', 'Bearer not-a-token', 'Basic YWRtaW46YWRtaW4='];
  let checked = 0;
  for (const r of routes.filter((x) => !x.public)) {
    for (const authorization of bogus) {
      const res = await app.inject({
        method: r.method as 'GET',
        url: fill(r.url),
        headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' },
        ...(['POST', 'PUT', 'PATCH'].includes(r.method) ? { payload: '{}' } : {}),
      });
      assert.is(res.statusCode, 401, `${r.method} ${r.url} with ${authorization ?? 'no token'} answered ${res.statusCode}`);
      if (r.method !== 'HEAD') assert.is(res.json().code, 'UNAUTHORIZED');
      checked++;
    }
  }
  assert.ok(checked >= 100, `only ${checked} requests checked`);
  await app.close();
});

Routes('routes :: the public four answer without a token', async () => {
  const { app } = await productionApp();
  assert.is((await app.inject({ url: '/api/health' })).statusCode, 200);
  assert.is((await app.inject({ url: '/api/auth/status' })).statusCode, 200);
  assert.is((await app.inject({ method: 'POST', url: '/api/auth/bootstrap', payload: {} })).statusCode, 400);
  assert.is((await app.inject({ method: 'POST', url: '/api/auth/login', payload: {} })).statusCode, 400);
  await app.close();
});

Routes('routes :: a route added without a config is protected; one marked public under /api is caught', async () => {
  const { app, routes } = await productionApp((a) => {
    a.get('/api/added-later', async () => ({ secret: true }));
    a.post('/workflow-runs/:id/oops', { config: { public: true } }, async () => ({}));
  });
  assert.is((await app.inject({ url: '/api/added-later' })).statusCode, 401);
  assert.not.equal(publicApi(routes), EXPECTED_PUBLIC);
  assert.ok(publicApi(routes).includes('POST /workflow-runs/:id/oops'));
  await app.close();
});

Routes.run();
