import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connectorStatus, providerStatus, saveConnector, saveProvider } from '../../sql/catalogue.js';
import { writeSecret } from '../../sql/secrets.js';
import { testDb } from '../helpers.js';

const Catalogue = suite('sql/catalogue');

Catalogue('providerStatus :: base_url always; a key unless local', () => {
  assert.is(providerStatus({ type: 'local', base_url: 'http://h', has_api_key: false }), 'configured');
  assert.is(providerStatus({ type: 'local', base_url: null, has_api_key: true }), 'draft');
  assert.is(providerStatus({ type: 'openai-compatible', base_url: 'http://h', has_api_key: false }), 'draft');
  assert.is(providerStatus({ type: 'anthropic-compatible', base_url: 'http://h', has_api_key: true }), 'configured');
});

Catalogue('connectorStatus :: webhook needs config.url, the others a token', () => {
  assert.is(connectorStatus({ type: 'webhook', config: { url: 'https://x' }, has_token: false }), 'configured');
  assert.is(connectorStatus({ type: 'webhook', config: {}, has_token: true }), 'draft');
  assert.is(connectorStatus({ type: 'github', config: {}, has_token: true }), 'configured');
  assert.is(connectorStatus({ type: 'custom', config: { url: 'https://x' }, has_token: false }), 'draft');
});

Catalogue('saveProvider :: a failed update puts the previous key back', () => {
  const { db, config } = testDb();
  saveProvider(db, config.home, undefined, { name: 'taken', type: 'local' });
  const p = saveProvider(db, config.home, undefined, { name: 'mine', type: 'openai-compatible', base_url: 'https://x', api_key: 'old-key' });
  assert.throws(() => saveProvider(db, config.home, p.id, { name: 'taken', api_key: 'new-key' }), (e: any) => e.code === 'NAME_TAKEN');
  assert.is(readFileSync(path.join(config.home, 'secrets', `provider-${p.id}`), 'utf8'), 'old-key');
});

Catalogue('saveConnector :: a failed create leaves no secret file; has_token follows the file when not sent', () => {
  const { db, config } = testDb();
  const c = saveConnector(db, config.home, undefined, { name: 'a', type: 'github' });
  assert.throws(() => saveConnector(db, config.home, undefined, { name: 'a', type: 'github', token: 't' }), (e: any) => e.code === 'NAME_TAKEN');
  assert.equal(
    [...new Set((db.prepare('SELECT id FROM connectors').pluck().all() as string[]))].map((id) => existsSync(path.join(config.home, 'secrets', `connector-${id}`))),
    [false],
  );
  writeSecret(config.home, `connector-${c.id}`, 'placed by hand');
  assert.is(saveConnector(db, config.home, c.id, { config: { org: 'o' } }).has_token, true);
});

Catalogue.run();
