import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { count, makeApp } from './api-fixture.js';

const TOKEN = 'ghp_connectorTOKEN_0123456789abcdef';
const Connectors = suite('server/connectors');
const secretFile = (home: string, id: string) => path.join(home, 'secrets', `connector-${id}`);

Connectors('create :: token to a secret file, has_token only; config returned as sent; status derived', async () => {
  const f = await makeApp();
  const res = await f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload: { name: 'GitHub', type: 'github', config: { owner: 'acme', repos: ['a', 'b'] }, token: TOKEN } });
  assert.is(res.statusCode, 201);
  const c = res.json();
  assert.equal({ type: c.type, config: c.config, has_token: c.has_token, status: c.status }, { type: 'github', config: { owner: 'acme', repos: ['a', 'b'] }, has_token: true, status: 'configured' });
  assert.not.ok(res.body.includes(TOKEN));
  assert.is(readFileSync(secretFile(f.config.home, c.id), 'utf8'), TOKEN);
  assert.not.ok(JSON.stringify(f.db.prepare('SELECT * FROM connectors').all()).includes(TOKEN));
  const slack = (await f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload: { name: 'Slack', type: 'slack' } })).json();
  assert.equal([slack.status, slack.has_token, slack.config], ['draft', false, {}]);
  const hook = (await f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload: { name: 'Hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' } } })).json();
  assert.is(hook.status, 'configured');
  const list = await f.req({ url: '/api/connectors', token: f.operatorToken });
  assert.equal(list.json().map((x: any) => x.name), ['GitHub', 'Hook', 'Slack']);
  assert.not.ok(list.body.includes(TOKEN));
  await f.close();
});

Connectors('patch and delete :: token set and removed, config replaced; delete removes the secret', async () => {
  const f = await makeApp();
  const c = (await f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload: { name: 'GL', type: 'gitlab' } })).json();
  const set = await f.req({ method: 'PATCH', url: `/api/connectors/${c.id}`, token: f.adminToken, payload: { token: TOKEN, config: { base_url: 'https://gitlab.example.com' } } });
  assert.equal([set.statusCode, set.json().status, set.json().config.base_url], [200, 'configured', 'https://gitlab.example.com']);
  const unset = await f.req({ method: 'PATCH', url: `/api/connectors/${c.id}`, token: f.adminToken, payload: { token: null } });
  assert.equal([unset.json().status, unset.json().has_token], ['draft', false]);
  assert.not.ok(existsSync(secretFile(f.config.home, c.id)));
  await f.req({ method: 'PATCH', url: `/api/connectors/${c.id}`, token: f.adminToken, payload: { token: TOKEN } });
  assert.is((await f.req({ method: 'DELETE', url: `/api/connectors/${c.id}`, token: f.adminToken })).statusCode, 204);
  assert.not.ok(existsSync(secretFile(f.config.home, c.id)));
  assert.is((await f.req({ method: 'DELETE', url: `/api/connectors/${c.id}`, token: f.adminToken })).statusCode, 404);
  assert.is((await f.req({ method: 'PATCH', url: `/api/connectors/${c.id}`, token: f.adminToken, payload: { name: 'x' } })).statusCode, 404);
  await f.close();
});

Connectors('errors :: bad type 400, config not an object 400, secret-looking config key 422, bad url 422, duplicate 409', async () => {
  const f = await makeApp();
  const post = (payload: object) => f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload });
  await post({ name: 'one', type: 'github' });
  assert.is((await post({ name: 'x', type: 'Git Hub' })).statusCode, 400);
  assert.is((await post({ name: 'x', type: 'github', config: [1] })).statusCode, 400);
  assert.is((await post({ name: 'x', type: 'github', config: 'a' })).statusCode, 400);
  const leak = await post({ name: 'x', type: 'github', config: { api_token: 'oops' } });
  assert.is(leak.statusCode, 422);
  assert.match(leak.json().message, '"token"');
  assert.not.ok(leak.body.includes('oops'));
  assert.is((await post({ name: 'x', type: 'webhook', config: { url: 'javascript:alert(1)' } })).statusCode, 422);
  const dup = await post({ name: 'one', type: 'slack', token: 't' });
  assert.is(dup.statusCode, 409);
  assert.is(count(f.db, 'connectors'), 1);
  await f.close();
});

Connectors.run();
