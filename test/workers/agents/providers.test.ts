import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveProvider } from '../../../workers/agents/providers.js';
import { saveProvider } from '../../../sql/catalogue.js';
import { testDb } from '../../helpers.js';

const P = suite('workers/agents/providers');

P('providers :: no provider configured → none (the CLI keeps its own login)', () => {
  const { db, config } = testDb();
  assert.is(resolveProvider(db, config, 'claude'), undefined);
});

P('providers :: the first configured provider fitting the agent; gemini gets none', () => {
  const { db, config } = testDb();
  saveProvider(db, config.home, undefined, { name: 'draft-anthropic', type: 'anthropic-compatible', base_url: 'http://a', api_key: null });
  const anth = saveProvider(db, config.home, undefined, { name: 'anthropic', type: 'anthropic-compatible', base_url: 'http://b', api_key: 'k' });
  const local = saveProvider(db, config.home, undefined, { name: 'ollama', type: 'local', base_url: 'http://127.0.0.1:11434/v1' });
  assert.equal(resolveProvider(db, config, 'claude'), { id: anth.id, name: 'anthropic', type: 'anthropic-compatible', baseUrl: 'http://b', home: config.home });
  assert.is(resolveProvider(db, config, 'codex')?.id, local.id);
  assert.is(resolveProvider(db, config, 'gemini'), undefined);
});

P('providers :: an explicit choice is validated against the agent', () => {
  const { db, config } = testDb();
  const local = saveProvider(db, config.home, undefined, { name: 'ollama', type: 'local', base_url: 'http://127.0.0.1:11434/v1' });
  assert.is(resolveProvider(db, config, 'codex', local.id)?.id, local.id);
  assert.is(resolveProvider(db, config, 'codex', 'ollama')?.id, local.id);
  assert.throws(() => resolveProvider(db, config, 'claude', local.id), /cannot drive claude/);
  assert.throws(() => resolveProvider(db, config, 'codex', 'nope'), /no model provider/);
});

P.run();
