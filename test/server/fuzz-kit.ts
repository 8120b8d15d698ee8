/**
 * The property behind the fuzz suites (fuzz.test.ts, fuzz-catalogue.test.ts): at least 500 random bodies per
 * write route; whatever arrives, the API answers without a 5xx, in the error shape, and a refused request leaves
 * the database and the secrets folder exactly as they were. Not a test file itself.
 */
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NODE_TYPES } from '../../core/graph.js';
import { graph, type ApiFixture } from './api-fixture.js';

export const RUNS = 500;
/**
 * Everything a refused request must not change: SQLite's count of rows written on the connection the app uses
 * (stricter than comparing rows: even a write later rolled back counts) and every secret file with its content.
 */
function snapshot(f: ApiFixture): string {
  let written = f.db.prepare('SELECT total_changes()').pluck().get() as number;
  // Row changes to an exempt table are counted by temporary triggers; each one also wrote the ledger (2 changes).
  if (exempted.has(f.db)) written -= 2 * (f.db.prepare('SELECT n FROM temp.fuzz_exempt_ledger').pluck().get() as number);
  const dir = path.join(f.config.home, 'secrets');
  return `${written}|` + readdirSync(dir).sort().map((n) => `${n}=${readFileSync(path.join(dir, n), 'utf8')}`).join(',');
}

const exempted = new WeakSet<object>();

/**
 * Lets refusals write `table` (bookkeeping a refusal is meant to leave, such as the login limiter's
 * `login_attempts`): temporary triggers on the app's connection count its row changes so the snapshot can
 * leave them out. Every other write still fails the property.
 */
export function exemptTable(f: ApiFixture, table: string): void {
  if (!exempted.has(f.db)) {
    f.db.exec('CREATE TEMP TABLE fuzz_exempt_ledger (n INTEGER NOT NULL); INSERT INTO fuzz_exempt_ledger VALUES (0);');
    exempted.add(f.db);
  }
  for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
    f.db.exec(`CREATE TEMP TRIGGER fuzz_exempt_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table} BEGIN UPDATE fuzz_exempt_ledger SET n = n + 1; END;`);
  }
}

// Values close to valid and plainly wrong, mixed, so the checks past the schema are reached too.
export const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
);
export const str = (max = 40) => fc.oneof(fc.string({ minLength: 0, maxLength: max }), fc.string({ unit: 'grapheme', maxLength: max }), junk);
// Built by hand: fc.webUrl() spends seconds building its domain tables on first use.
const webish = fc.tuple(fc.constantFrom('http://', 'https://', 'ftp://', '', 'http:/'), fc.stringMatching(/^[a-z0-9.:/-]{0,24}$/)).map(([s, h]) => s + h);
export const url = fc.oneof(webish, fc.constantFrom('http://localhost:11434/v1', 'ftp://x', 'javascript:alert(1)', ''), junk);

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
export const graphArb = fc.oneof(
  fc.record({ nodes: fc.array(nodeArb, { maxLength: 4 }), edges: fc.array(edgeArb, { maxLength: 4 }) }, { requiredKeys: [] }),
  fc.constant(graph()),
  junk,
);

/** A body: a shaped record over the route's fields (plus stray keys), anything at all, or broken JSON text. */
export function bodies(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<{ raw: string | undefined }> {
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

export async function fuzz(f: ApiFixture, method: 'POST' | 'PUT' | 'PATCH', url: string, token: string, fields: Record<string, fc.Arbitrary<unknown>>, remoteAddress?: string) {
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
      } else if (snapshot(f) === before) {
        // Proves the detector sees writes: every accepted write route stores something.
        throw new Error(`${method} ${url} answered ${res.statusCode} without a visible write`);
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

