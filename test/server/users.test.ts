import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, OPERATOR, count, makeApp } from './api-fixture.js';

const Users = suite('server/users');

Users('list :: admin sees users without hashes; operator 403; no token 401', async () => {
  const f = await makeApp();
  const res = await f.req({ url: '/api/users', token: f.adminToken });
  assert.is(res.statusCode, 200);
  const list = res.json() as Array<Record<string, unknown>>;
  assert.equal(list.map((u) => u.username).sort(), [ADMIN.username, OPERATOR.username]);
  assert.not.ok(res.body.includes('password'));
  const op = await f.req({ url: '/api/users', token: f.operatorToken });
  assert.is(op.statusCode, 403);
  assert.is(op.json().code, 'FORBIDDEN');
  assert.is((await f.req({ url: '/api/users' })).statusCode, 401);
  await f.close();
});

Users('create :: 201; taken name (any case) 409; bad role 400; weak password 422; operator 403 even with a bad body', async () => {
  const f = await makeApp();
  const post = (payload: unknown, token = f.adminToken) => f.req({ method: 'POST', url: '/api/users', token, payload: payload as object });
  const ok = await post({ username: 'bob', password: 'bobs password', role: 'operator' });
  assert.is(ok.statusCode, 201);
  assert.equal(Object.keys(ok.json()).sort(), ['created_at', 'id', 'role', 'updated_at', 'username']);
  const taken = await post({ username: 'BOB', password: 'bobs password', role: 'operator' });
  assert.is(taken.statusCode, 409);
  assert.is(taken.json().code, 'USERNAME_TAKEN');
  assert.is((await post({ username: 'carl', password: 'carls password', role: 'root' })).statusCode, 400);
  assert.is((await post({ username: 'carl', password: 'pw', role: 'operator' })).statusCode, 422);
  assert.is((await post({ nonsense: true }, f.operatorToken)).statusCode, 403);
  assert.is(count(f.db, 'users'), 3);
  const login = await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: 'bob', password: 'bobs password' } });
  assert.is(login.statusCode, 200);
  assert.is(login.json().user.role, 'operator');
  await f.close();
});

Users('delete :: 204 and the user\'s sessions die; yourself 409; unknown 404; operator 403', async () => {
  const f = await makeApp();
  const opId = (f.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(OPERATOR.username)) as string;
  const adminId = (f.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(ADMIN.username)) as string;
  assert.is((await f.req({ method: 'DELETE', url: `/api/users/${adminId}`, token: f.operatorToken })).statusCode, 403);
  const self = await f.req({ method: 'DELETE', url: `/api/users/${adminId}`, token: f.adminToken });
  assert.is(self.statusCode, 409);
  assert.is(self.json().code, 'SELF_DELETE');
  assert.is((await f.req({ method: 'DELETE', url: '/api/users/no-such-user', token: f.adminToken })).statusCode, 404);
  const del = await f.req({ method: 'DELETE', url: `/api/users/${opId}`, token: f.adminToken });
  assert.is(del.statusCode, 204);
  assert.is((await f.req({ url: '/api/auth/me', token: f.operatorToken })).statusCode, 401);
  assert.is(count(f.db, 'users'), 1);
  await f.close();
});

Users('delete :: one admin may delete another while an admin remains', async () => {
  const f = await makeApp();
  const b = await f.req({ method: 'POST', url: '/api/users', token: f.adminToken, payload: { username: 'second', password: 'second admin pw', role: 'admin' } });
  const token = (await f.req({ method: 'POST', url: '/api/auth/login', payload: { username: 'second', password: 'second admin pw' } })).json().token;
  const adminId = (f.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(ADMIN.username)) as string;
  assert.is((await f.req({ method: 'DELETE', url: `/api/users/${adminId}`, token })).statusCode, 204);
  const self = await f.req({ method: 'DELETE', url: `/api/users/${b.json().id}`, token });
  assert.is(self.statusCode, 409);
  await f.close();
});

Users.run();
