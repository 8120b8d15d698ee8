/** The fake CLIs themselves honour the real interfaces' rejections and formats (agent-clis.md §5). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { FAKE_BIN, gitRepo, tempDir } from '../../helpers.js';

const Fakes = suite('fixtures/bin fakes');

function fake(bin: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(path.join(FAKE_BIN, bin), args, { cwd: opts.cwd ?? gitRepo(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
}

Fakes('claude :: --version, text and json formats, stream-json needs --verbose, unknown flags exit 1', () => {
  assert.is(fake('claude', ['--version']).stdout, '2.1.240 (Claude Code)\n');
  assert.is(fake('claude', ['-p', 'say [[fake:answer=hi]]']).stdout, 'hi\n');
  const j = JSON.parse(fake('claude', ['-p', 'x', '--output-format', 'json']).stdout);
  assert.equal([j.type, j.subtype, j.is_error], ['result', 'success', false]);
  for (const k of ['duration_ms', 'duration_api_ms', 'num_turns', 'session_id']) assert.ok(k in j, k);
  const nv = fake('claude', ['-p', 'x', '--output-format', 'stream-json']);
  assert.equal([nv.code, nv.stderr.trim()], [1, 'Error: When using --print, --output-format=stream-json requires --verbose']);
  assert.is(fake('claude', ['-p', 'x', '--bogus']).code, 1);
  const s = fake('claude', ['-p', 'x', '--output-format', 'stream-json', '--verbose']).lines.map((l) => JSON.parse(l));
  assert.equal([s[0].type, s[0].subtype, s[s.length - 1].type], ['system', 'init', 'result']);
  assert.ok(s.every((o) => o.session_id === s[0].session_id));
});

Fakes('claude :: root guard for bypass without IS_SANDBOX=1', () => {
  if (process.getuid?.() !== 0) return;
  const r = fake('claude', ['-p', 'x', '--dangerously-skip-permissions'], { env: { IS_SANDBOX: '' } });
  assert.equal([r.code, r.stderr.trim()], [1, '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons']);
  assert.is(fake('claude', ['-p', 'x', '--dangerously-skip-permissions'], { env: { IS_SANDBOX: '1' } }).code, 0);
});

Fakes('codex :: git check, yolo conflicts with -s (exit 2), human mode prints only the answer on stdout', () => {
  const plain = tempDir();
  const r = fake('codex', ['exec', 'x'], { cwd: plain });
  assert.equal([r.code, r.stderr.trim()], [1, 'Not inside a trusted directory and --skip-git-repo-check was not specified.']);
  assert.is(fake('codex', ['exec', '--skip-git-repo-check', 'x'], { cwd: plain }).code, 0);
  assert.is(fake('codex', ['exec', '--yolo', '-s', 'read-only', 'x']).code, 2);
  const h = fake('codex', ['exec', 'do it [[fake:answer=ok]]']);
  assert.is(h.stdout, 'ok\n');
  assert.match(h.stderr, /OpenAI Codex/);
  const j = fake('codex', ['exec', '--json', 'x']).lines.map((l) => JSON.parse(l));
  assert.equal(j.map((o) => o.type), ['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
  const f = fake('codex', ['exec', '--json', 'x [[fake:fail=nope]]']);
  assert.is(f.code, 1);
  assert.equal(f.lines.slice(-2).map((l) => JSON.parse(l).type), ['error', 'turn.failed']);
  assert.match(fake('codex', ['exec', '--full-auto', 'x']).stderr, /`--full-auto` is deprecated/);
});

Fakes('gemini :: trust (55), -p with a positional (42), no input (42), json error on stderr with its code', () => {
  assert.is(fake('gemini', ['-p', 'x']).code, 55);
  assert.is(fake('gemini', ['-p', 'x'], { env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } }).code, 0);
  assert.is(fake('gemini', ['-p', 'x', 'y', '--skip-trust']).code, 42);
  assert.is(fake('gemini', ['--skip-trust', '-p', '']).code, 42);
  assert.is(fake('gemini', ['-y', '--approval-mode', 'yolo', '-p', 'x', '--skip-trust']).code, 42);
  const e = fake('gemini', ['-p', 'x [[fake:fail=api down]]', '-o', 'json', '--skip-trust']);
  assert.is(e.code, 1);
  assert.is(e.stdout, '');
  assert.equal(JSON.parse(e.stderr).error.message, 'api down');
  const ok = JSON.parse(fake('gemini', ['-p', 'x [[fake:answer=yes]]', '-o', 'json', '--skip-trust']).stdout);
  assert.equal([ok.response, typeof ok.stats.models], ['yes', 'object']);
  const s = fake('gemini', ['-p', 'x', '-o', 'stream-json', '--skip-trust']).lines.map((l) => JSON.parse(l));
  assert.equal([s[0].type, s[1].role, s[s.length - 1].type, s[s.length - 1].status], ['init', 'user', 'result', 'success']);
  assert.ok(s.every((o) => typeof o.timestamp === 'string'));
});

Fakes('directives :: fail-attempts counts per key under WFCTL_FAKE_STATE; default answer drops directives', () => {
  const state = tempDir();
  const env = { WFCTL_FAKE_STATE: state };
  const args = ['-p', 'Fix the build [[fake:fail-attempts=2:k1]]', '--output-format', 'json'];
  assert.equal([fake('claude', args, { env }).code, fake('claude', args, { env }).code, fake('claude', args, { env }).code], [1, 1, 0]);
  assert.is(JSON.parse(fake('claude', args, { env }).stdout).result, 'done: Fix the build');
});

Fakes('mcp list :: each CLI reads its own global config under HOME', () => {
  const home = tempDir();
  const env = { HOME: home };
  assert.match(fake('claude', ['mcp', 'list'], { env }).stdout, /No MCP servers configured/);
  assert.match(fake('gemini', ['mcp', 'list'], { env }).stdout, /No MCP servers configured/);
  assert.match(fake('codex', ['mcp', 'list'], { env }).stdout, /No MCP servers configured yet/);
});

Fakes.run();
