import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOGIN_LIMITS, SlidingWindowLimiter } from '../../server/plugins/ratelimit.js';
import { sessionIdOf } from '../../sql/sessions.js';
import { buildApp } from '../../server/app.js';
import { testDb } from '../helpers.js';
import { ADMIN, OPERATOR, count, makeApp } from './api-fixture.js';

const Status = suite('server/auth status and bootstrap');

Status('status :: before bootstrap says not bootstrapped, without a token', async () => {
  const f = await makeApp({ users: false });
  const res = await f.req({ url: '/api/auth/status' });
  assert.is(res.statusCode, 200);
  assert.equal(res.json(), { bootstrapped: false });
  await f.close();
});

Status('bootstrap :: creates the first admin and signs it in; a second bootstrap is 409', async () => {
  const f = await makeApp({ users: false });
  const res = await f.req({ method: 'POST', url: '/api/auth/bootstrap', payload: ADMIN });
  assert.is(res.statusCode, 201);
  const body = res.json();
  assert.is(body.user.username, ADMIN.username);
  assert.is(body.user.role, 'admin');
  assert.not.ok('password_hash' in body.user);
  assert.match(body.token, /^[a-z2-7]{32}$/);
  const me = await f.req({ url: '/api/auth/me', token: body.token });
  assert.is(me.json().username, ADMIN.username);
  const status = await f.req({ url: '/api/auth/status', token: body.token });
  assert.equal(status.json(), { bootstrapped: true, user: { id: body.user.id, username: ADMIN.username, role: 'admin' } });
  const again = await f.req({ method: 'POST', url: '/api/auth/bootstrap', payload: { username: 'mallory', password: 'another password' } });
  assert.is(again.statusCode, 409);
  assert.is(again.json().code, 'BOOTSTRAP_DONE');
  assert.is(count(f.db, 'users'), 1);
  await f.close();
});

Status('bootstrap :: concurrent bootstraps create exactly one admin', async () => {
  const f = await makeApp({ users: false });
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) => f.req({ method: 'POST', url: '/api/auth/bootstrap', payload: { username: `admin${i}`, password: 'a long password' } })),
  );
  const codes = answers.map((a) => a.statusCode).sort();
  assert.equal(codes, [201, 409, 409, 409, 409, 409]);
  assert.is(count(f.db, 'users'), 1);
  await f.close();
});

Status('bootstrap :: weak password 422, bad user name 422, missing field 400, extra field 400, malformed JSON 400', async () => {
  const f = await makeApp({ users: false });
  const post = (payload: unknown) => f.req({ method: 'POST', url: '/api/auth/bootstrap', payload: payload as object, headers: { 'content-type': 'application/json' } });
  const weak = await post({ username: 'ann', password: 'short' });
  assert.is(weak.statusCode, 422);
  assert.match(weak.json().message, 'at least 8 characters');
  const long = await post({ username: 'ann', password: 'x'.repeat(73) });
  assert.is(long.statusCode, 422);
  assert.match(long.json().message, '72 bytes');
  const name = await post({ username: 'has space', password: 'long enough pw' });
  assert.is(name.statusCode, 422);
  assert.match(name.json().message, 'username');
  assert.is((await post({ username: 'ann' })).statusCode, 400);
  assert.is((await post({ username: 'ann', password: 'long enough pw', role: 'admin' })).statusCode, 400);
  const bad = await f.req({ method: 'POST', url: '/api/auth/bootstrap', payload: '{"username":', headers: { 'content-type': 'application/json' } });
  assert.is(bad.statusCode, 400);
  assert.equal(Object.keys(bad.json()).sort(), ['code', 'error', 'message', 'statusCode']);
  assert.is(count(f.db, 'users'), 0);
  await f.close();
});

const Login = suite('server/auth login and logout');

Login('login :: returns a token, the user and the expiry', async () => {
  const f = await makeApp();
  const res = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: 'ALICE', password: ADMIN.password } });
  assert.is(res.statusCode, 200);
  const body = res.json();
  assert.is(body.user.username, ADMIN.username);
  assert.ok(Date.parse(body.expires_at) > Date.now() + 29 * 86_400_000);
  assert.is((await f.req({ url: '/api/auth/me', token: body.token })).statusCode, 200);
  await f.close();
});

Login('login :: a wrong password and an unknown user answer the same 401', async () => {
  const f = await makeApp();
  const wrong = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: 'not the password' } });
  const nobody = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: 'nobody', password: 'not the password' } });
  assert.is(wrong.statusCode, 401);
  assert.is(nobody.statusCode, 401);
  assert.equal(wrong.json(), nobody.json());
  assert.is(wrong.json().code, 'INVALID_CREDENTIALS');
  await f.close();
});

Login('logout :: revokes the token (refused afterwards), other sessions live on', async () => {
  const f = await makeApp();
  const second = (await f.req({ method: 'POST', url: '/api/auth/login', payload: ADMIN })).json().token as string;
  const out = await f.req({ method: 'POST', url: '/api/auth/logout', token: second });
  assert.is(out.statusCode, 204);
  assert.is(out.body, '');
  const after = await f.req({ url: '/api/auth/me', token: second });
  assert.is(after.statusCode, 401);
  assert.is(after.json().code, 'UNAUTHORIZED');
  assert.is((await f.req({ method: 'POST', url: '/api/auth/logout', token: second })).statusCode, 401);
  assert.is((await f.req({ url: '/api/auth/me', token: f.adminToken })).statusCode, 200);
  await f.close();
});

Login('sessions :: tokens are never stored in clear, only their SHA-256', async () => {
  const f = await makeApp();
  const tokens = [f.adminToken, f.operatorToken];
  const rows = f.db.prepare('SELECT * FROM auth_sessions').all() as Record<string, unknown>[];
  assert.is(rows.length, 2);
  const dump = JSON.stringify(rows);
  for (const t of tokens) {
    assert.not.ok(dump.includes(t), 'token stored in clear');
    assert.ok(rows.some((r) => r.id === sessionIdOf(t)));
  }
  const users = JSON.stringify(f.db.prepare('SELECT * FROM users').all());
  assert.not.ok(users.includes(ADMIN.password));
  assert.match(users, /\$2[aby]\$10\$/);
  await f.close();
});

Login('me :: no token, a malformed token and a well-formed unknown token are 401', async () => {
  const f = await makeApp();
  assert.is((await f.req({ url: '/api/auth/me' })).statusCode, 401);
  assert.is((await f.req({ url: '/api/auth/me', headers: { authorization: 'Bearer nope' } })).statusCode, 401);
  assert.is((await f.req({ url: '/api/auth/me', token: 'a'.repeat(32) })).statusCode, 401);
  assert.is((await f.req({ url: '/api/auth/me', headers: { authorization: `Basic ${f.adminToken}` } })).statusCode, 401);
  await f.close();
});

const Limit = suite('server/auth rate limit');

Limit('login :: failed attempts on one user name end in 429 with Retry-After, even with the right password', async () => {
  const f = await makeApp();
  const { limit } = LOGIN_LIMITS.perUsername;
  for (let i = 0; i < limit; i++) {
    // Vary the address so only the per-name limit can trigger.
    const r = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: OPERATOR.username, password: `wrong ${i}` }, remoteAddress: `10.0.0.${i + 1}` });
    assert.is(r.statusCode, 401);
  }
  const blocked = await f.req({ method: 'POST', url: '/api/auth/login', payload: OPERATOR, remoteAddress: '10.0.1.1' });
  assert.is(blocked.statusCode, 429);
  assert.is(blocked.json().code, 'RATE_LIMITED');
  const secs = Number(blocked.headers['retry-after']);
  assert.ok(secs > 0 && secs <= LOGIN_LIMITS.perUsername.windowMs / 1000);
  // Another user is not affected.
  assert.is((await f.req({ method: 'POST', url: '/api/auth/login', payload: ADMIN, remoteAddress: '10.0.1.2' })).statusCode, 200);
  await f.close();
});

Limit('login :: one address is limited across user names', async () => {
  const f = await makeApp();
  const { limit } = LOGIN_LIMITS.perAddress;
  for (let i = 0; i < limit; i++) {
    const r = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: `ghost${i}`, password: 'whatever pw' }, remoteAddress: '192.0.2.7' });
    assert.is(r.statusCode, 401);
  }
  const blocked = await f.req({ method: 'POST', url: '/api/auth/login', payload: ADMIN, remoteAddress: '192.0.2.7' });
  assert.is(blocked.statusCode, 429);
  assert.ok(Number(blocked.headers['retry-after']) >= 1);
  assert.is((await f.req({ method: 'POST', url: '/api/auth/login', payload: ADMIN, remoteAddress: '192.0.2.8' })).statusCode, 200);
  await f.close();
});

Limit('limiter :: sliding window frees a slot as the oldest hit leaves it', () => {
  let now = 1_000;
  const { db } = testDb();
  const l = new SlidingWindowLimiter(db, 'address', { limit: 2, windowMs: 100 }, () => now);
  l.hit('k');
  now += 30;
  l.hit('k');
  assert.is(l.retryAfterMs('k'), 70);
  now += 71;
  assert.is(l.retryAfterMs('k'), 0);
  l.hit('k');
  assert.ok(l.retryAfterMs('k') > 0);
  l.reset('k');
  assert.is(l.retryAfterMs('k'), 0);
  assert.is(l.retryAfterMs('other'), 0);
  // Scopes do not share counts.
  const names = new SlidingWindowLimiter(db, 'username', { limit: 1, windowMs: 100 }, () => now);
  l.hit('same');
  assert.is(names.retryAfterMs('same'), 0);
  // Old rows are pruned when a limiter starts (and every so many hits), so the table does not grow.
  now += 1_000;
  new SlidingWindowLimiter(db, 'address', { limit: 2, windowMs: 100 }, () => now);
  assert.is(db.prepare("SELECT count(*) FROM login_attempts WHERE scope = 'address'").pluck().get(), 0);
});

Limit('login :: the counts survive a restart of the server, and the table holds no typed user name', async () => {
  const f = await makeApp();
  const { limit } = LOGIN_LIMITS.perUsername;
  for (let i = 0; i < limit; i++) {
    const r = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: 'Oscar', password: `guess ${i} wrong` }, remoteAddress: `198.51.100.${i}` });
    assert.is(r.statusCode, 401);
  }
  await f.close();
  // A new server over the same database (what a restart is).
  const again = await buildApp({ db: f.db, config: f.config, scheduler: () => ({ status: 'disabled' }), sandbox: () => 'none' });
  try {
    const r = await again.inject({ method: 'POST', url: '/api/auth/login', payload: OPERATOR, remoteAddress: '198.51.100.200' });
    assert.is(r.statusCode, 429, r.body);
    assert.is(r.json().code, 'RATE_LIMITED');
    const keys = f.db.prepare('SELECT key FROM login_attempts').pluck().all() as string[];
    assert.ok(keys.length >= limit);
    assert.ok(keys.every((k) => /^[0-9a-f]{64}$/.test(k)), 'only digests are stored');
  } finally {
    await again.close();
  }
});

Status.run();
Login.run();
Limit.run();
