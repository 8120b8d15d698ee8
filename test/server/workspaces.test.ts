import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeApp } from './api-fixture.js';
import { gitRepo, tempDir } from '../helpers.js';

const W = suite('server/workspaces');

W('workspaces :: approve stores the real path; list; approving again is 200; revoke by path', async () => {
  const f = await makeApp();
  const repo = gitRepo();
  const link = path.join(tempDir(), 'link');
  symlinkSync(repo, link);
  const res = await f.req({ method: 'POST', url: '/api/workspaces', token: f.adminToken, payload: { path: link, label: 'demo' } });
  assert.is(res.statusCode, 201);
  assert.equal([res.json().path, res.json().label, res.json().approved_by], [repo, 'demo', 'alice']);
  assert.is((await f.req({ method: 'POST', url: '/api/workspaces', token: f.adminToken, payload: { path: repo } })).statusCode, 200);
  const list = await f.req({ url: '/api/workspaces', token: f.operatorToken });
  assert.equal(list.json().map((w: any) => w.path), [repo]);
  const del = await f.req({ method: 'DELETE', url: '/api/workspaces', token: f.adminToken, payload: { path: repo } });
  assert.is(del.statusCode, 204);
  assert.equal((await f.req({ url: '/api/workspaces', token: f.adminToken })).json(), []);
  assert.is((await f.req({ method: 'DELETE', url: `/api/workspaces?path=${encodeURIComponent(repo)}`, token: f.adminToken })).statusCode, 404);
  await f.close();
});

W('workspaces :: revoke by id', async () => {
  const f = await makeApp();
  const id = (await f.req({ method: 'POST', url: '/api/workspaces', token: f.adminToken, payload: { path: gitRepo() } })).json().id;
  assert.is((await f.req({ method: 'DELETE', url: `/api/workspaces/${id}`, token: f.adminToken })).statusCode, 204);
  await f.close();
});

W('workspaces :: a missing path or a file is 422; unknown fields 400; operators may only read', async () => {
  const f = await makeApp();
  const missing = await f.req({ method: 'POST', url: '/api/workspaces', token: f.adminToken, payload: { path: '/nonexistent/x' } });
  assert.equal([missing.statusCode, missing.json().code], [422, 'VALIDATION_FAILED']);
  const file = path.join(tempDir(), 'f.txt');
  writeFileSync(file, 'x');
  assert.is((await f.req({ method: 'POST', url: '/api/workspaces', token: f.adminToken, payload: { path: file } })).statusCode, 422);
  assert.is((await f.req({ method: 'POST', url: '/api/workspaces', token: f.adminToken, payload: { path: gitRepo(), extra: 1 } })).statusCode, 400);
  assert.is((await f.req({ method: 'POST', url: '/api/workspaces', token: f.operatorToken, payload: { path: gitRepo() } })).statusCode, 403);
  assert.is((await f.req({ url: '/api/workspaces' })).statusCode, 401);
  await f.close();
});

W.run();
