import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import os from 'node:os';
import path from 'node:path';
import { ENV_VARS, loadConfig } from '../../core/config.js';
import { ERROR_CATALOGUE } from '../../core/errors.js';
import { parseDuration } from '../../core/time.js';
import { readFileSync } from 'node:fs';
import { ROOT } from '../helpers.js';

const Config = suite('core/config');

Config('config :: defaults', () => {
  const c = loadConfig({});
  assert.is(c.home, path.join(os.homedir(), '.wfctl'));
  assert.is(c.dbPath, path.join(os.homedir(), '.wfctl', 'data', 'app.db'));
  assert.is(c.host, '127.0.0.1');
  assert.is(c.port, 8080);
  assert.ok(c.embeddedScheduler);
});

Config('config :: environment then flags override', () => {
  const c = loadConfig({ WFCTL_HOST: '0.0.0.0', WFCTL_PORT: '9000', WFCTL_HOME: '~/x', WFCTL_WORKSPACE_ROOTS: '/a:/b' }, { port: 9100 });
  assert.is(c.host, '0.0.0.0');
  assert.is(c.port, 9100);
  assert.is(c.home, path.join(os.homedir(), 'x'));
  assert.equal(c.workspaceRoots, ['/a', '/b']);
});

Config('config :: a bad value fails fast naming the variable', () => {
  assert.throws(() => loadConfig({ WFCTL_PORT: 'eighty' }), /WFCTL_PORT must be a whole number/);
  assert.throws(() => loadConfig({ WFCTL_SCHEDULER: 'sometimes' }), /WFCTL_SCHEDULER/);
  assert.throws(() => loadConfig({ WFCTL_RUNNER_URL: 'ftp://x' }), /WFCTL_RUNNER_URL/);
});

Config('config :: the README documents every variable', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  for (const v of ENV_VARS) for (const name of v.name.split(' / ')) assert.ok(readme.includes(name), `README mentions ${name}`);
});

Config('errors :: every code maps to an HTTP status', () => {
  for (const [code, status] of Object.entries(ERROR_CATALOGUE)) {
    assert.match(code, /^[A-Z_]+$/);
    assert.ok(status >= 400 && status < 600, code);
  }
});

Config('time :: durations', () => {
  assert.is(parseDuration('90s'), 90_000);
  assert.is(parseDuration('1h30m'), 5_400_000);
  assert.is(parseDuration('500ms'), 500);
  assert.is(parseDuration('12'), 12_000);
  assert.is(parseDuration('soon'), undefined);
  assert.is(parseDuration('5m later'), undefined);
});

Config.run();
