import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeApp } from './api-fixture.js';
import { FAKE_BIN, tempDir } from '../helpers.js';

const Agents = suite('server/agents');

Agents('agents :: found, version, models and MCP servers of each CLI (env values never shown)', async () => {
  const home = tempDir('wfctl-userhome-');
  writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { github: { type: 'stdio', command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_secret' } }, docs: { type: 'http', url: 'https://docs.example/mcp' } } }));
  mkdirSync(path.join(home, '.codex'));
  writeFileSync(path.join(home, '.codex', 'config.toml'), '[mcp_servers.fs]\ncommand = "mcp-fs"\nargs = ["/srv"]\n\n[mcp_servers.remote]\nurl = "https://r.example/mcp"\nenabled = false\n');
  mkdirSync(path.join(home, '.gemini'));
  writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { search: { httpUrl: 'https://s.example/mcp', headers: { Authorization: 'Bearer x' } } } }));
  const saved = { HOME: process.env.HOME, PATH: process.env.PATH };
  process.env.HOME = home;
  process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
  const f = await makeApp();
  try {
    const res = await f.req({ url: '/api/agents', token: f.operatorToken });
    assert.is(res.statusCode, 200);
    const list = res.json() as any[];
    assert.equal(list.map((a) => a.name), ['claude', 'codex', 'gemini']);
    const [claude, codex, gemini] = list;
    assert.equal([claude.found, claude.path, claude.version], [true, path.join(FAKE_BIN, 'claude'), '2.1.240 (Claude Code)']);
    assert.is(codex.version, 'codex-cli 0.160.0');
    assert.is(gemini.version, '0.56.0');
    assert.ok(claude.models.includes('sonnet'));
    assert.is(codex.default_model, 'gpt-5.5');
    assert.equal(claude.mcp_servers.map((s: any) => [s.name, s.transport, s.command ?? s.url]), [['github', 'stdio', 'npx'], ['docs', 'http', 'https://docs.example/mcp']]);
    assert.equal(claude.mcp_servers[0].env_keys, ['GITHUB_TOKEN']);
    assert.equal(codex.mcp_servers.map((s: any) => [s.name, s.enabled]), [['fs', true], ['remote', false]]);
    assert.equal(gemini.mcp_servers.map((s: any) => [s.name, s.transport, s.url]), [['search', 'http', 'https://s.example/mcp']]);
    assert.not.ok(res.body.includes('ghp_secret') || res.body.includes('Bearer x'));
  } finally {
    process.env.HOME = saved.HOME;
    process.env.PATH = saved.PATH;
    await f.close();
  }
});

Agents('agents :: a CLI that is not installed is reported as not found', async () => {
  const saved = process.env.WFCTL_GEMINI_BIN;
  process.env.WFCTL_GEMINI_BIN = '/nonexistent/gemini';
  const f = await makeApp();
  try {
    const gemini = ((await f.req({ url: '/api/agents', token: f.operatorToken })).json() as any[]).find((a) => a.name === 'gemini');
    assert.equal([gemini.found, gemini.version, gemini.path], [false, null, null]);
    assert.ok(gemini.models.length > 0);
  } finally {
    if (saved === undefined) delete process.env.WFCTL_GEMINI_BIN;
    else process.env.WFCTL_GEMINI_BIN = saved;
    await f.close();
  }
});

Agents('agents :: needs a token', async () => {
  const f = await makeApp({ users: false });
  assert.is((await f.req({ url: '/api/agents' })).statusCode, 401);
  await f.close();
});

Agents.run();
