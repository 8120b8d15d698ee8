import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seed } from '../../sql/seed.js';
import { count, makeApp } from './api-fixture.js';

const Skills = suite('server/skills');

Skills('list :: the built-in skills are there, marked builtin', async () => {
  const f = await makeApp();
  const res = await f.req({ url: '/api/skills', token: f.operatorToken });
  assert.is(res.statusCode, 200);
  const builtins = res.json().filter((s: any) => s.builtin);
  assert.ok(builtins.length >= 3, `only ${builtins.length} built-in skills`);
  assert.ok(builtins.every((s: any) => s.id === `builtin-${s.builtin_key}` && Array.isArray(s.compatible_roles) && s.prompt_template.length > 0));
  await f.close();
});

Skills('crud :: create 201, read, patch, delete 204; then 404', async () => {
  const f = await makeApp();
  const created = await f.req({ method: 'POST', url: '/api/skills', token: f.operatorToken, payload: { name: 'Terse', prompt_template: 'Answer tersely.', compatible_roles: ['specialist'] } });
  assert.is(created.statusCode, 201);
  const s = created.json();
  assert.equal([s.builtin, s.description, s.compatible_roles], [false, '', ['specialist']]);
  assert.is((await f.req({ url: `/api/skills/${s.id}`, token: f.operatorToken })).json().name, 'Terse');
  const patched = await f.req({ method: 'PATCH', url: `/api/skills/${s.id}`, token: f.operatorToken, payload: { description: 'short answers' } });
  assert.equal([patched.statusCode, patched.json().description, patched.json().prompt_template], [200, 'short answers', 'Answer tersely.']);
  assert.is((await f.req({ method: 'DELETE', url: `/api/skills/${s.id}`, token: f.operatorToken })).statusCode, 204);
  for (const [method, payload] of [['GET'], ['PATCH', { name: 'n' }], ['DELETE']] as const) {
    const r = await f.req({ method, url: `/api/skills/${s.id}`, token: f.operatorToken, ...(payload ? { payload } : {}) });
    assert.is(r.statusCode, 404, method);
    assert.is(r.json().code, 'SKILL_NOT_FOUND');
  }
  await f.close();
});

Skills('errors :: missing template 400, blank template 422, unknown field 400, wrong types 400, empty patch 400, unknown query 400', async () => {
  const f = await makeApp();
  const before = count(f.db, 'skills');
  const post = (payload: object) => f.req({ method: 'POST', url: '/api/skills', token: f.operatorToken, payload });
  assert.is((await post({ name: 'x' })).statusCode, 400);
  assert.is((await post({ name: 'x', prompt_template: '   ' })).statusCode, 422);
  assert.is((await post({ name: 'x', prompt_template: 'p', builtin_key: 'hack' })).statusCode, 400);
  assert.is((await post({ name: 'x', prompt_template: 'p', compatible_roles: { all: true } })).statusCode, 400);
  assert.is((await post({ name: 'x', prompt_template: 'p', compatible_roles: [{}] })).statusCode, 400);
  assert.is((await f.req({ method: 'PATCH', url: '/api/skills/builtin-code-review', token: f.operatorToken, payload: {} })).statusCode, 400);
  assert.is((await f.req({ url: '/api/skills?sort=name', token: f.operatorToken })).statusCode, 400);
  assert.is(count(f.db, 'skills'), before);
  await f.close();
});

Skills('builtins :: an edit persists across re-seeding; a deleted built-in is seeded again', async () => {
  const f = await makeApp();
  const list = (await f.req({ url: '/api/skills', token: f.operatorToken })).json();
  const [a, b] = list.filter((s: any) => s.builtin);
  const edit = await f.req({ method: 'PATCH', url: `/api/skills/${a.id}`, token: f.operatorToken, payload: { prompt_template: 'Our own version.' } });
  assert.is(edit.statusCode, 200);
  assert.is((await f.req({ method: 'DELETE', url: `/api/skills/${b.id}`, token: f.operatorToken })).statusCode, 204);
  assert.is((await f.req({ url: `/api/skills/${b.id}`, token: f.operatorToken })).statusCode, 404);
  seed(f.db);
  assert.is((await f.req({ url: `/api/skills/${a.id}`, token: f.operatorToken })).json().prompt_template, 'Our own version.');
  const back = await f.req({ url: `/api/skills/${b.id}`, token: f.operatorToken });
  assert.is(back.statusCode, 200);
  assert.is(back.json().prompt_template, b.prompt_template);
  await f.close();
});

Skills.run();
