import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { count, makeApp } from './api-fixture.js';

const KEY = 'sk-test-ABCDEF0123456789-provider';
const Providers = suite('server/providers');

const secretFile = (home: string, id: string) => path.join(home, 'secrets', `provider-${id}`);

Providers('create :: the key goes to a 0600 secret file, the answer says only has_api_key; status derived', async () => {
  const f = await makeApp();
  const res = await f.req({ method: 'POST', url: '/api/model-providers', token: f.adminToken, payload: { name: 'OpenAI', type: 'openai-compatible', base_url: 'https://api.example.com/v1', models: ['gpt-x'], api_key: KEY } });
  assert.is(res.statusCode, 201);
  const p = res.json();
  assert.equal({ has_api_key: p.has_api_key, status: p.status, models: p.models, type: p.type }, { has_api_key: true, status: 'configured', models: ['gpt-x'], type: 'openai-compatible' });
  assert.not.ok(res.body.includes(KEY));
  assert.not.ok('api_key' in p);
  const file = secretFile(f.config.home, p.id);
  assert.is(readFileSync(file, 'utf8'), KEY);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.not.ok(JSON.stringify(f.db.prepare('SELECT * FROM model_providers').all()).includes(KEY));
  const list = await f.req({ url: '/api/model-providers', token: f.operatorToken });
  assert.is(list.statusCode, 200);
  assert.not.ok(list.body.includes(KEY));
  assert.is(list.json().length, 1);
  await f.close();
});

Providers('status :: local needs only base_url; hosted types need base_url and a key', async () => {
  const f = await makeApp();
  const post = (payload: object) => f.req({ method: 'POST', url: '/api/model-providers', token: f.adminToken, payload });
  assert.is((await post({ name: 'ollama', type: 'local', base_url: 'http://localhost:11434/v1' })).json().status, 'configured');
  assert.is((await post({ name: 'bare', type: 'local' })).json().status, 'draft');
  const anth = (await post({ name: 'anth', type: 'anthropic-compatible', base_url: 'https://a.example.com' })).json();
  assert.is(anth.status, 'draft');
  const patched = await f.req({ method: 'PATCH', url: `/api/model-providers/${anth.id}`, token: f.adminToken, payload: { api_key: KEY } });
  assert.is(patched.statusCode, 200);
  assert.equal([patched.json().status, patched.json().has_api_key], ['configured', true]);
  const removed = await f.req({ method: 'PATCH', url: `/api/model-providers/${anth.id}`, token: f.adminToken, payload: { api_key: null } });
  assert.equal([removed.json().status, removed.json().has_api_key], ['draft', false]);
  assert.not.ok(existsSync(secretFile(f.config.home, anth.id)));
  const renamed = await f.req({ method: 'PATCH', url: `/api/model-providers/${anth.id}`, token: f.adminToken, payload: { name: 'Anthropic', base_url: null } });
  assert.equal([renamed.json().name, renamed.json().base_url, renamed.json().status], ['Anthropic', null, 'draft']);
  await f.close();
});

Providers('errors :: bad type 400, bad URL 422, empty key 422, duplicate name 409 (key untouched), unknown id 404', async () => {
  const f = await makeApp();
  const post = (payload: object) => f.req({ method: 'POST', url: '/api/model-providers', token: f.adminToken, payload });
  const first = (await post({ name: 'dup', type: 'local', base_url: 'http://h', api_key: KEY })).json();
  assert.is((await post({ name: 'x', type: 'azure' })).statusCode, 400);
  assert.is((await post({ name: 'x', type: 'local', base_url: 'ftp://h' })).statusCode, 422);
  assert.is((await post({ name: 'x', type: 'local', api_key: '' })).statusCode, 422);
  assert.is((await post({ name: 'x', type: 'local', apikey: 'k' })).statusCode, 400);
  const dup = await post({ name: 'dup', type: 'local', api_key: 'other-key' });
  assert.is(dup.statusCode, 409);
  assert.is(dup.json().code, 'NAME_TAKEN');
  assert.is(count(f.db, 'model_providers'), 1);
  assert.is(readFileSync(secretFile(f.config.home, first.id), 'utf8'), KEY);
  const two = (await post({ name: 'two', type: 'local' })).json();
  const clash = await f.req({ method: 'PATCH', url: `/api/model-providers/${two.id}`, token: f.adminToken, payload: { name: 'dup', api_key: 'k2' } });
  assert.is(clash.statusCode, 409);
  assert.not.ok(existsSync(secretFile(f.config.home, two.id)), 'a failed patch left its key behind');
  assert.is((await f.req({ method: 'PATCH', url: `/api/model-providers/${two.id}`, token: f.adminToken, payload: {} })).statusCode, 400);
  assert.is((await f.req({ method: 'PATCH', url: '/api/model-providers/nope', token: f.adminToken, payload: { name: 'n' } })).statusCode, 404);
  assert.is((await f.req({ method: 'DELETE', url: '/api/model-providers/nope', token: f.adminToken })).statusCode, 404);
  await f.close();
});

Providers('delete :: removes the row and the secret file', async () => {
  const f = await makeApp();
  const p = (await f.req({ method: 'POST', url: '/api/model-providers', token: f.adminToken, payload: { name: 'tmp', type: 'openai-compatible', base_url: 'https://x', api_key: KEY } })).json();
  assert.ok(existsSync(secretFile(f.config.home, p.id)));
  assert.is((await f.req({ method: 'DELETE', url: `/api/model-providers/${p.id}`, token: f.adminToken })).statusCode, 204);
  assert.not.ok(existsSync(secretFile(f.config.home, p.id)));
  assert.is(count(f.db, 'model_providers'), 0);
  await f.close();
});

Providers.run();
