/**
 * Property-based: at least 500 random bodies per write route. Whatever arrives, the API answers without a 5xx,
 * in the error shape, and a refused request leaves every table and the secrets folder exactly as they were.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { NODE_TYPES } from '../../core/graph.js';
import { makeApp, graph, type ApiFixture } from './api-fixture.js';

const RUNS = 500;
const TABLES = ['users', 'auth_sessions', 'workflows', 'model_providers', 'skills', 'connectors'];

/** Everything a failed request must not change: every row of the written tables, and the secret files. */
function snapshot(f: ApiFixture): string {
  const rows = TABLES.map((t) => JSON.stringify(f.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()));
  return rows.join('\n') + readdirSync(path.join(f.config.home, 'secrets')).sort().join(',');
}

// Values close to valid and plainly wrong, mixed, so the checks past the schema are reached too.
const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
);
const str = (max = 40) => fc.oneof(fc.string({ minLength: 0, maxLength: max }), fc.string({ unit: 'grapheme', maxLength: max }), junk);
const url = fc.oneof(fc.webUrl(), fc.constantFrom('http://localhost:11434/v1', 'ftp://x', 'javascript:alert(1)', ''), junk);

const nodeArb = fc.record(
  {
    id: fc.oneof(fc.constantFrom('a', 'b', 'c'), str(5)),
    type: fc.oneof(fc.constantFrom(...NODE_TYPES), str(10)),
    data: fc.oneof(
      fc.record({ label: str(10), objective: str(10), maxIterations: fc.oneof(fc.integer({ min: -2, max: 12 }), junk), condition: fc.oneof(junk, fc.record({ op: fc.constantFrom('contains', 'succeeded', 'matches', 'x'), value: str(5) })) }, { requiredKeys: ['label', 'objective'] }),
      junk,
    ),
  },
  { requiredKeys: [] },
);
const edgeArb = fc.record(
  { id: str(4), source: fc.oneof(fc.constantFrom('a', 'b', 'c'), str(3)), target: fc.oneof(fc.constantFrom('a', 'b', 'c'), str(3)), sourceHandle: fc.oneof(fc.constantFrom('true', 'false'), junk) },
  { requiredKeys: [] },
);
const graphArb = fc.oneof(
  fc.record({ nodes: fc.array(nodeArb, { maxLength: 4 }), edges: fc.array(edgeArb, { maxLength: 4 }) }, { requiredKeys: [] }),
  fc.constant(graph()),
  junk,
);

/** A body: a shaped record over the route's fields (plus stray keys), anything at all, or broken JSON text. */
function bodies(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<{ raw: string | undefined }> {
  const shaped = fc.record({ ...fields, ...{ stray: junk } }, { requiredKeys: [] }).map((o) => {
    const copy = { ...o } as Record<string, unknown>;
    if (Math.random() < 0.8) delete copy.stray;
    return copy;
  });
  return fc.oneof(
    { weight: 6, arbitrary: shaped.map((o) => ({ raw: JSON.stringify(o) })) },
    { weight: 2, arbitrary: fc.anything({ maxDepth: 3 }).map((v) => ({ raw: JSON.stringify(v) })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => ({ raw: s })) },
    { weight: 1, arbitrary: fc.constant({ raw: undefined }) },
  );
}

async function fuzz(f: ApiFixture, method: 'POST' | 'PUT' | 'PATCH', url: string, token: string, fields: Record<string, fc.Arbitrary<unknown>>, remoteAddress?: string) {
  const seen = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(bodies(fields), async ({ raw }) => {
      const before = snapshot(f);
      const res = await f.req({
        method, url, token, remoteAddress,
        ...(raw === undefined ? {} : { payload: raw, headers: { 'content-type': 'application/json' } }),
      });
      seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}\nbody sent: ${raw}`);
      if (res.statusCode >= 400) {
        const err = res.json();
        if (typeof err.message !== 'string' || err.statusCode !== res.statusCode || typeof err.code !== 'string') throw new Error(`not the error shape: ${res.body}`);
        if (snapshot(f) !== before) throw new Error(`${method} ${url} answered ${res.statusCode} but changed stored data; body sent: ${raw}`);
      }
    }),
    { numRuns: RUNS },
  );
  // The property must have reached both outcomes where that is possible, or it proved little.
  const codes = [...seen.keys()];
  assert.ok(codes.some((c) => c >= 400), `${url}: no refusals in ${RUNS} runs`);
  if (process.env.FUZZ_VERBOSE) console.log(method, url, Object.fromEntries(seen));
  return seen;
}

const Fuzz = suite('server/fuzz');

Fuzz('fuzz :: bootstrap and login', async () => {
  const fresh = await makeApp({ users: false });
  const creds = { username: fc.oneof(fc.constantFrom('admin', 'ann', 'x y'), str(70)), password: fc.oneof(fc.constantFrom('long enough pw', 'short'), str(80)) };
  const b = await fuzz(fresh, 'POST', '/api/auth/bootstrap', '', creds);
  assert.ok((b.get(201) ?? 0) <= 1, 'bootstrap succeeded twice');
  await fresh.close();
  const f = await makeApp();
  await fuzz(f, 'POST', '/api/auth/login', '', creds, '198.51.100.1');
  await f.close();
});

Fuzz('fuzz :: users', async () => {
  const f = await makeApp();
  const s = await fuzz(f, 'POST', '/api/users', f.adminToken, {
    username: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/), str(70)),
    password: fc.oneof(fc.constantFrom('long enough pw'), str(80)),
    role: fc.oneof(fc.constantFrom('admin', 'operator'), junk),
  });
  assert.ok((s.get(201) ?? 0) > 0, 'no user was ever created');
  await f.close();
});

Fuzz('fuzz :: workflows create, update, publish, use', async () => {
  const f = await makeApp();
  const fields = { name: fc.oneof(fc.constantFrom('Flow', 'flow', '  '), str(210)), description: str(50), graph: graphArb };
  const created = await fuzz(f, 'POST', '/api/workflows', f.operatorToken, fields);
  assert.ok((created.get(201) ?? 0) > 0 && (created.get(422) ?? 0) > 0 && (created.get(400) ?? 0) > 0, JSON.stringify([...created]));
  const target = (await f.req({ method: 'POST', url: '/api/workflows', token: f.operatorToken, payload: { name: 'fuzz target', graph: graph() } })).json();
  await fuzz(f, 'PUT', `/api/workflows/${target.id}`, f.operatorToken, fields);
  await fuzz(f, 'POST', `/api/workflows/${target.id}/publish`, f.operatorToken, { name: fields.name });
  await fuzz(f, 'POST', '/api/workflows/builtin-bug-fix/use', f.operatorToken, { name: fields.name });
  await f.close();
});

Fuzz('fuzz :: model providers, skills, connectors', async () => {
  const f = await makeApp();
  const provider = {
    name: str(110), type: fc.oneof(fc.constantFrom('local', 'openai-compatible', 'anthropic-compatible'), junk), base_url: url,
    models: fc.oneof(fc.array(str(10), { maxLength: 3 }), junk), api_key: fc.oneof(fc.constantFrom('sk-x', '', null), junk),
  };
  await fuzz(f, 'POST', '/api/model-providers', f.adminToken, provider);
  const p = (await f.req({ method: 'POST', url: '/api/model-providers', token: f.adminToken, payload: { name: 'fuzz-p', type: 'local' } })).json();
  await fuzz(f, 'PATCH', `/api/model-providers/${p.id}`, f.adminToken, provider);
  const skill = { name: str(110), description: str(30), compatible_roles: fc.oneof(fc.array(str(10), { maxLength: 3 }), junk), prompt_template: fc.oneof(fc.constantFrom('Do it well.', ' '), str(30)) };
  await fuzz(f, 'POST', '/api/skills', f.operatorToken, skill);
  await fuzz(f, 'PATCH', '/api/skills/builtin-code-review', f.operatorToken, skill);
  const connector = {
    name: str(110), type: fc.oneof(fc.constantFrom('github', 'gitlab', 'slack', 'webhook', 'Bad Type'), junk),
    config: fc.oneof(fc.record({ url, owner: str(8) }, { requiredKeys: [] }), fc.dictionary(fc.constantFrom('token', 'api_key', 'org', 'x'), junk), junk),
    token: fc.oneof(fc.constantFrom('tok', '', null), junk),
  };
  await fuzz(f, 'POST', '/api/connectors', f.adminToken, connector);
  const c = (await f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload: { name: 'fuzz-c', type: 'github' } })).json();
  await fuzz(f, 'PATCH', `/api/connectors/${c.id}`, f.adminToken, connector);
  await f.close();
});

Fuzz.run();
