/** Property-based bodies on the catalogue write routes: providers, skills, connectors (the property: fuzz-kit.ts). */
import { suite } from 'uvu';
import fc from 'fast-check';
import { makeApp } from './api-fixture.js';
import { fuzz, str, junk, url } from './fuzz-kit.js';

const Fuzz = suite('server/fuzz-catalogue');

Fuzz('fuzz :: model providers, skills, connectors', async () => {
  const f = await makeApp();
  const provider = {
    name: str(110), type: fc.oneof(fc.constantFrom('local', 'openai-compatible', 'anthropic-compatible'), junk), base_url: url,
    models: fc.oneof(fc.array(str(10), { maxLength: 3 }), junk), api_key: fc.oneof(fc.constantFrom('sk-x', '', null), junk),
  };
  await fuzz(f, 'POST', '/api/model-providers', f.adminToken, provider);
  const p = (await f.req({ method: 'POST', url: '/api/model-providers', token: f.adminToken, payload: { name: 'fuzz-p', type: 'local' } })).json();
  await fuzz(f, 'PATCH', `/api/model-providers/${p.id}`, f.adminToken, provider);
  const skill = { name: str(110), description: str(30), compatible_roles: fc.oneof(fc.array(str(10), { maxLength: 3 }), junk), prompt_template: fc.oneof(fc.constantFrom('Do it well.', ' '), str(30)) };
  await fuzz(f, 'POST', '/api/skills', f.operatorToken, skill);
  await fuzz(f, 'PATCH', '/api/skills/builtin-code-review', f.operatorToken, skill);
  const connector = {
    name: str(110), type: fc.oneof(fc.constantFrom('github', 'gitlab', 'slack', 'webhook', 'Bad Type'), junk),
    config: fc.oneof(fc.record({ url, owner: str(8) }, { requiredKeys: [] }), fc.dictionary(fc.constantFrom('token', 'api_key', 'org', 'x'), junk), junk),
    token: fc.oneof(fc.constantFrom('tok', '', null), junk),
  };
  await fuzz(f, 'POST', '/api/connectors', f.adminToken, connector);
  const c = (await f.req({ method: 'POST', url: '/api/connectors', token: f.adminToken, payload: { name: 'fuzz-c', type: 'github' } })).json();
  await fuzz(f, 'PATCH', `/api/connectors/${c.id}`, f.adminToken, connector);
  await f.close();
});

Fuzz.run();
