import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runAgent } from '../../../workers/agents/run.js';
import type { AgentMessage, AgentRequest } from '../../../workers/agents/types.js';
import { detectSandbox } from '../../../workers/sandbox/detect.js';
import { bwrapArgs, wfctlHomeOfCopy } from '../../../workers/sandbox/bwrap.js';
import { prepareWorkingCopy } from '../../../workers/workspace.js';
import { spawnSync } from 'node:child_process';
import { FAKE_BIN, gitRepo, pidAlive, tempDir, testConfig, waitFor } from '../../helpers.js';
import { readFakeLog } from '../agents/fakelog.js';
import { repoFingerprint } from '../fingerprint.js';

process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
const Bwrap = suite('workers/sandbox/bwrap');
const available = detectSandbox() === 'bwrap';

/** A fake user home with the CLI's config folder and a private file, a wfctl home with a secret, and a copy. */
async function world() {
  const userHome = tempDir('wfctl-userhome-');
  mkdirSync(path.join(userHome, '.claude'));
  writeFileSync(path.join(userHome, '.claude', 'settings.json'), '{"theme":"dark"}');
  writeFileSync(path.join(userHome, '.claude.json'), '{"numStartups":1}');
  mkdirSync(path.join(userHome, 'other-repo'));
  writeFileSync(path.join(userHome, 'other-repo', 'private.txt'), 'private');
  const config = testConfig();
  mkdirSync(path.join(config.home, 'secrets'), { recursive: true });
  writeFileSync(path.join(config.home, 'secrets', 'provider-x'), 'sk-top-secret');
  const repo = gitRepo({ 'README.md': '# repo\n' });
  const copy = await prepareWorkingCopy(config, 'run-bwrap', repo);
  const state = tempDir('wfctl-fake-');
  return { userHome, config, repo, copy, state, log: path.join(state, 'log.jsonl') };
}

async function run(w: Awaited<ReturnType<typeof world>>, prompt: string, over: Partial<AgentRequest> = {}) {
  const messages: AgentMessage[] = [];
  const res = await runAgent({
    agent: 'claude', prompt, cwd: w.copy, write: true, runtime: 'direct', sandbox: true, timeoutMs: 20_000,
    env: { HOME: w.userHome, WFCTL_FAKE_LOG: w.log, WFCTL_FAKE_STATE: w.state }, ...over,
  }, { onMessage: (m) => messages.push(m) });
  return { res, messages };
}

Bwrap('bwrap :: the wfctl home of a working copy is found from its path', () => {
  assert.is(wfctlHomeOfCopy('/srv/wf/artifacts/runs/abc/workspace'), '/srv/wf');
  assert.is(wfctlHomeOfCopy('/srv/other'), undefined);
});

Bwrap('bwrap :: argv hides the home, binds the copy read-write (read-only for read-only runs) and the config folder', async () => {
  const w = await world();
  const a = bwrapArgs({ agent: 'claude', cwd: w.copy, write: true, env: { HOME: w.userHome } }, '/usr/bin/claude', ['-p', 'x']);
  const s = a.join(' ');
  assert.ok(s.startsWith('--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp'));
  assert.ok(s.includes(`--bind ${w.copy} ${w.copy}`));
  assert.ok(s.includes(`--bind ${path.join(w.userHome, '.claude')} `));
  assert.ok(s.includes(`--file 3 ${path.join(w.userHome, '.claude.json')}`));
  assert.ok(a.includes('--die-with-parent') && a.includes('--unshare-pid'));
  assert.equal(a.slice(-3), ['/usr/bin/claude', '-p', 'x']);
  const ro = bwrapArgs({ agent: 'claude', cwd: w.copy, write: false, env: { HOME: w.userHome } }, '/usr/bin/claude', []).join(' ');
  assert.ok(ro.includes(`--ro-bind ${w.copy} ${w.copy}`));
});

Bwrap('bwrap :: writing inside the copy works; the user repo stays byte-for-byte unchanged', async () => {
  if (!available) return console.log('  (skipped: bubblewrap unusable here)');
  const w = await world();
  const before = repoFingerprint(w.repo);
  const { res } = await run(w, 'Edit [[fake:write=src/new.ts:export {}]]');
  assert.is(res.status, 'completed', res.error);
  assert.is(res.command[0], 'bwrap');
  assert.is(readFileSync(path.join(w.copy, 'src/new.ts'), 'utf8'), 'export {}');
  assert.equal(repoFingerprint(w.repo), before);
  assert.is(readFakeLog(w.log)[0].cwd, w.copy);
});

Bwrap('bwrap :: writing outside the copy fails (source repo, system, wfctl home, the copy\'s .git) or vanishes (private home)', async () => {
  if (!available) return console.log('  (skipped: bubblewrap unusable here)');
  const w = await world();
  const refused = [path.join(w.repo, 'evil.txt'), '/etc/wfctl-evil.txt', path.join(w.config.home, 'evil.txt'), path.join(w.copy, '.git', 'hooks', 'pre-commit')];
  // The home is a private throw-away tmpfs (CLIs and tools write caches there): writes land nowhere real.
  const vanish = [path.join(w.userHome, 'evil.txt'), path.join(w.userHome, '.claude.json')];
  const prompt = [...refused, ...vanish].map((t) => `[[fake:write-abs=${t}:x]]`).join(' ') + ' done';
  const { res, messages } = await run(w, prompt);
  assert.is(res.status, 'completed', res.error);
  for (const t of [...refused, vanish[0]]) assert.not.ok(existsSync(t), `${t} must not exist`);
  assert.is(readFileSync(vanish[1], 'utf8'), '{"numStartups":1}', 'the real ~/.claude.json is untouched');
  const errors = messages.filter((m) => m.kind === 'tool_result' && m.content.startsWith('error:'));
  assert.is(errors.length, refused.length, JSON.stringify(errors));
});

Bwrap('bwrap :: other folders of the home and wfctl secrets are invisible; the CLI config folder is there', async () => {
  if (!available) return console.log('  (skipped: bubblewrap unusable here)');
  const w = await world();
  const r1 = await run(w, `[[fake:read-abs=${path.join(w.userHome, 'other-repo', 'private.txt')}]]`);
  assert.match(r1.res.finalText, /ENOENT/);
  const r2 = await run(w, `[[fake:read-abs=${path.join(w.config.home, 'secrets', 'provider-x')}]]`);
  assert.match(r2.res.finalText, /ENOENT/);
  const r3 = await run(w, `[[fake:read-abs=${path.join(w.userHome, '.claude', 'settings.json')}]]`);
  assert.is(r3.res.finalText, '{"theme":"dark"}');
  const r4 = await run(w, `[[fake:read-abs=${path.join(w.userHome, '.claude.json')}]]`);
  assert.is(r4.res.finalText, '{"numStartups":1}', 'a private copy of ~/.claude.json');
});

Bwrap('bwrap :: a read-only run cannot write even into its copy', async () => {
  if (!available) return console.log('  (skipped: bubblewrap unusable here)');
  const w = await world();
  const { res } = await run(w, `[[fake:write-abs=${path.join(w.copy, 'x.txt')}:x]]`, { write: false, agent: 'codex' });
  assert.is(res.status, 'completed', res.error);
  assert.not.ok(existsSync(path.join(w.copy, 'x.txt')));
});

Bwrap('bwrap :: codex and gemini run confined with the outer sandbox as their sandbox', async () => {
  if (!available) return console.log('  (skipped: bubblewrap unusable here)');
  const w = await world();
  const c = await run(w, 'Edit [[fake:write=c.txt:codex]]', { agent: 'codex' });
  assert.is(c.res.status, 'completed', c.res.error);
  assert.ok(c.res.command.includes('--dangerously-bypass-approvals-and-sandbox'));
  const g = await run(w, 'Edit [[fake:write=g.txt:gemini]]', { agent: 'gemini' });
  assert.is(g.res.status, 'completed', g.res.error);
  assert.ok(g.res.command.includes('yolo'));
  assert.is(readFileSync(path.join(w.copy, 'c.txt'), 'utf8') + readFileSync(path.join(w.copy, 'g.txt'), 'utf8'), 'codexgemini');
});

Bwrap('bwrap :: cancel kills the confined agent and everything it started', async () => {
  if (!available) return console.log('  (skipped: bubblewrap unusable here)');
  const w = await world();
  const ac = new AbortController();
  const marker = `marker-${process.pid}-${Date.now()}`;
  const res = await runAgent({ agent: 'claude', prompt: `${marker} [[fake:spawn-child]][[fake:hang]]`, cwd: w.copy, write: true, runtime: 'direct', sandbox: true, timeoutMs: 20_000, env: { HOME: w.userHome } }, { signal: ac.signal, onMessage: () => ac.abort() });
  assert.is(res.status, 'cancelled');
  await waitFor(() => spawnSync('pgrep', ['-f', marker]).status === 1, 5000, 20, 'no process left');
  assert.not.ok(pidAlive(res.pid!));
});

Bwrap('bwrap :: no mechanism and no waiver: refused with one line naming --no-sandbox; waived runs go unconfined', async () => {
  const w = await world();
  const saved = process.env.PATH;
  process.env.PATH = FAKE_BIN; // no bwrap reachable
  try {
    assert.is(detectSandbox(true), 'none');
    try {
      await run(w, 'x');
      assert.unreachable();
    } catch (e) {
      assert.is((e as { code?: string }).code, 'SANDBOX_UNAVAILABLE');
      assert.match((e as Error).message, /--no-sandbox.*sandbox: false/);
      assert.not.match((e as Error).message, /\n/);
    }
  } finally {
    process.env.PATH = saved;
    detectSandbox(true);
  }
  const { res } = await run(w, 'hello', { sandbox: false });
  assert.is(res.status, 'completed', res.error);
  assert.not.ok(res.command.includes('bwrap'));
});

Bwrap.run();
