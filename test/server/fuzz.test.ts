/** Property-based bodies on the auth, user and workflow write routes (the property: fuzz-kit.ts). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { makeApp, graph } from './api-fixture.js';
import { exemptTable, fuzz, graphArb, str, junk } from './fuzz-kit.js';

const Fuzz = suite('server/fuzz');

Fuzz('fuzz :: bootstrap and login', async () => {
  const fresh = await makeApp({ users: false });
  const creds = { username: fc.oneof(fc.constantFrom('admin', 'ann', 'x y'), str(70)), password: fc.oneof(fc.constantFrom('long enough pw', 'short'), str(80)) };
  const b = await fuzz(fresh, 'POST', '/api/auth/bootstrap', '', creds);
  assert.ok((b.get(201) ?? 0) <= 1, 'bootstrap succeeded twice');
  await fresh.close();
  const f = await makeApp();
  // A refused sign-in records the attempt for the limiter; nothing else may change.
  exemptTable(f, 'login_attempts');
  await fuzz(f, 'POST', '/api/auth/login', '', creds, '198.51.100.1');
  assert.ok((f.db.prepare('SELECT count(*) FROM login_attempts').pluck().get() as number) > 0, 'the limiter saw the attempts');
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

Fuzz.run();
