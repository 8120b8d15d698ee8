import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../server/server.js';
import { buildApp } from '../../server/app.js';
import { testConfig, testDb } from '../helpers.js';
import { Writable } from 'node:stream';

const Health = suite('server/health');
const quiet = new Writable({ write: (_c, _e, cb) => cb() });

Health('health :: a real started server reports the live pragmas', async () => {
  const config = testConfig();
  const server = await startServer(config, { stdout: quiet });
  try {
    const res = await fetch(`${server.url}/api/health`);
    assert.is(res.status, 200);
    const body = (await res.json()) as any;
    assert.is(body.status, 'ok');
    assert.equal(
      { status: body.database.status, journal_mode: body.database.journal_mode, foreign_keys: body.database.foreign_keys, synchronous: body.database.synchronous, path: body.database.path },
      { status: 'ok', journal_mode: 'wal', foreign_keys: true, synchronous: 'normal', path: config.dbPath },
    );
    assert.type(body.scheduler.status, 'string');
    assert.is(body.runtime.mode, 'embedded');
    assert.ok(['bwrap', 'sandbox-exec', 'none'].includes(body.runtime.sandbox));
  } finally {
    await server.close();
  }
});

Health('health :: reads pragmas from SQLite, not constants', async () => {
  const { db, config } = testDb();
  db.pragma('synchronous = FULL');
  const app = await buildApp({ db, config, scheduler: () => ({ status: 'disabled' }), sandbox: () => 'none' });
  const body = (await app.inject({ url: '/api/health' })).json();
  assert.is(body.database.synchronous, 'full');
  assert.is(body.scheduler.status, 'disabled');
  await app.close();
});

Health('health :: a closed database answers 503, not a crash', async () => {
  const { db, config } = testDb();
  const app = await buildApp({ db, config, scheduler: () => ({ status: 'running' }), sandbox: () => 'none' });
  db.close();
  const res = await app.inject({ url: '/api/health' });
  assert.is(res.statusCode, 503);
  assert.is(res.json().database.status, 'error');
  await app.close();
});

Health('routes :: unknown API path is a 404 in the error shape', async () => {
  const { db, config } = testDb();
  const app = await buildApp({ db, config, scheduler: () => ({ status: 'running' }), sandbox: () => 'none' });
  const res = await app.inject({ url: '/api/nope' });
  assert.is(res.statusCode, 404);
  assert.equal(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode']);
  await app.close();
});

Health.run();
