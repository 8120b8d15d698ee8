import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../core/config.js';
import { loadMigrations, migrate, openDatabase, readPragmas } from '../../sql/db.js';
import { ROOT, spawnTracked, tempDir, testConfig } from '../helpers.js';

const Migrations = suite('sql/db migrate');

Migrations('migrate :: every migration applies on an empty database', () => {
  const db = new Database(':memory:');
  const applied = migrate(db);
  assert.equal(applied, loadMigrations().map((m) => m.version));
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).pluck().all();
  assert.equal(tables, [
    'agent_definitions', 'agent_messages', 'agent_runs', 'approval_requests', 'auth_sessions', 'connectors', 'jobs',
    'login_attempts', 'memory_entries', 'model_providers', 'run_events', 'run_logs', 'schema_migrations', 'skills', 'users',
    'workflow_runs', 'workflow_step_runs', 'workflows', 'workspaces',
  ]);
  db.close();
});

Migrations('migrate :: a second run is a no-op', () => {
  const db = new Database(':memory:');
  migrate(db);
  const before = db.prepare('SELECT * FROM schema_migrations').all();
  assert.equal(migrate(db), []);
  assert.equal(db.prepare('SELECT * FROM schema_migrations').all(), before);
  db.close();
});

Migrations('migrate :: a failing migration leaves nothing half-applied', () => {
  const db = new Database(':memory:');
  const good = loadMigrations();
  migrate(db, good);
  const bad = [...good, { version: 999, name: 'broken', sql: 'CREATE TABLE t_ok (x); CREATE TABLE broken (' }];
  assert.throws(() => migrate(db, bad));
  assert.equal(db.prepare(`SELECT count(*) FROM sqlite_master WHERE name='t_ok'`).pluck().get(), 0);
  assert.equal(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get(), good.at(-1)!.version);
  db.close();
});

Migrations('migrate :: two processes starting at once apply each migration once', async () => {
  const dir = tempDir();
  const dbPath = path.join(dir, 'race.db');
  const startAt = Date.now() + 400;
  const script = `
    import { openDatabase, migrate } from ${JSON.stringify(path.join(ROOT, 'dist/sql/db.js'))};
    const db = openDatabase({ home: ${JSON.stringify(dir)}, dbPath: ${JSON.stringify(dbPath)}, busyTimeoutMs: 5000 }, { migrate: false, createHome: false });
    while (Date.now() < ${startAt}) {}
    process.stdout.write(JSON.stringify(migrate(db)));
  `;
  const run = () =>
    new Promise<number[]>((resolve, reject) => {
      const c = spawnTracked(process.execPath, ['--input-type=module', '-e', script]);
      let out = '';
      let err = '';
      c.stdout!.on('data', (d) => (out += d));
      c.stderr!.on('data', (d) => (err += d));
      c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
    });
  const [a, b] = await Promise.all([run(), run()]);
  const all = loadMigrations().map((m) => m.version);
  assert.equal([...a, ...b].sort(), all, `each migration applied exactly once, got ${JSON.stringify([a, b])}`);
  const db = new Database(dbPath);
  assert.equal(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get(), all.length);
  db.close();
});

const Checks = suite('sql/db status checks');

function seeded() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db);
  db.prepare(`INSERT INTO workflows (id, name, slug, graph) VALUES ('w1', 'W', 'w', '{"nodes":[],"edges":[]}')`).run();
  db.prepare(`INSERT INTO workflow_runs (id, workflow_id, workflow_name, workspace_path, graph) VALUES ('r1', 'w1', 'W', '/tmp', '{}')`).run();
  db.prepare(`INSERT INTO workflow_step_runs (id, run_id, node_id, node_type, level) VALUES ('s1', 'r1', 'n1', 'specialistAgent', 0)`).run();
  return db;
}

const statusColumns: Array<[string, string, string[]]> = [
  ['workflow_runs', 'status', ['queued', 'running', 'waiting_approval', 'completed', 'failed', 'cancelled']],
  ['approval_requests', 'status', ['pending', 'approved', 'rejected', 'revision_requested', 'expired']],
  ['workflow_step_runs', 'status', ['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled', 'waiting_approval']],
  ['jobs', 'status', ['pending', 'leased', 'completed', 'failed']],
  ['agent_runs', 'status', ['running', 'completed', 'failed', 'cancelled', 'timed_out']],
  ['model_providers', 'status', ['configured', 'draft']],
  ['connectors', 'status', ['configured', 'draft']],
  ['users', 'role', ['admin', 'operator']],
  ['memory_entries', 'scope', ['workflow', 'team', 'agent_private']],
  ['memory_entries', 'sensitivity', ['normal', 'sensitive']],
  ['run_logs', 'level', ['info', 'warn', 'error']],
];

const insertRow: Record<string, (db: Database.Database, col: string, value: string) => void> = {
  workflow_runs: (db, col, v) => db.prepare(`INSERT INTO workflow_runs (id, workflow_name, workspace_path, graph, ${col}) VALUES (hex(randomblob(8)), 'W', '/tmp', '{}', ?)`).run(v),
  approval_requests: (db, col, v) => db.prepare(`INSERT INTO approval_requests (id, run_id, node_id, expires_at, ${col}) VALUES (hex(randomblob(8)), 'r1', 'n', '2030-01-01T00:00:00.000Z', ?)`).run(v),
  workflow_step_runs: (db, col, v) => db.prepare(`INSERT INTO workflow_step_runs (id, run_id, node_id, node_type, level, attempt, ${col}) VALUES (hex(randomblob(8)), 'r1', hex(randomblob(4)), 'x', 0, 1, ?)`).run(v),
  jobs: (db, col, v) => db.prepare(`INSERT INTO jobs (kind, ${col}) VALUES ('k', ?)`).run(v),
  agent_runs: (db, col, v) => db.prepare(`INSERT INTO agent_runs (id, agent, command, ${col}) VALUES (hex(randomblob(8)), 'claude', '[]', ?)`).run(v),
  model_providers: (db, col, v) => db.prepare(`INSERT INTO model_providers (id, name, type, ${col}) VALUES (hex(randomblob(8)), hex(randomblob(8)), 'local', ?)`).run(v),
  connectors: (db, col, v) => db.prepare(`INSERT INTO connectors (id, name, type, ${col}) VALUES (hex(randomblob(8)), hex(randomblob(8)), 'github', ?)`).run(v),
  users: (db, col, v) => db.prepare(`INSERT INTO users (id, username, password_hash, ${col}) VALUES (hex(randomblob(8)), hex(randomblob(8)), 'x', ?)`).run(v),
  memory_entries: (db, col, v) => db.prepare(`INSERT INTO memory_entries (id, run_id, node_id, key, value, ${col}) VALUES (hex(randomblob(8)), 'r1', 'n', 'k', 'v', ?)`).run(v),
  run_logs: (db, col, v) => db.prepare(`INSERT INTO run_logs (run_id, message, ${col}) VALUES ('r1', 'm', ?)`).run(v),
};

for (const [table, col, values] of statusColumns) {
  Checks(`check :: ${table}.${col} accepts the spec's values and refuses others`, () => {
    const db = seeded();
    for (const v of values) insertRow[table](db, col, v);
    for (const bad of ['bogus', '', values[0].toUpperCase()]) {
      assert.throws(() => insertRow[table](db, col, bad), /CHECK constraint failed/, `${table}.${col}='${bad}' must be refused`);
    }
    db.close();
  });
}

Checks('check :: foreign keys are enforced', () => {
  const db = seeded();
  assert.throws(() => db.prepare(`INSERT INTO workflow_step_runs (id, run_id, node_id, node_type, level) VALUES ('s9', 'nope', 'n', 't', 0)`).run(), /FOREIGN KEY/);
  db.close();
});

const Open = suite('sql/db open');

Open('open :: pragmas are WAL, foreign keys on, synchronous NORMAL, busy timeout', () => {
  const config = testConfig();
  const db = openDatabase(config);
  assert.equal(readPragmas(db), { journal_mode: 'wal', foreign_keys: true, synchronous: 'normal', busy_timeout: config.busyTimeoutMs });
  db.close();
});

Open('open :: creates the home folders, secrets private', () => {
  const config = testConfig();
  openDatabase(config).close();
  for (const f of ['data', 'artifacts', 'secrets', 'codebases']) assert.ok(existsSync(path.join(config.home, f)), f);
  assert.is(statSync(path.join(config.home, 'secrets')).mode & 0o777, 0o700);
  assert.ok(existsSync(path.join(config.home, 'data', 'app.db')));
});

Open('open :: WFCTL_HOME and WFCTL_DB relocate state', () => {
  const home = tempDir();
  const c1 = loadConfig({ WFCTL_HOME: home });
  assert.is(c1.dbPath, path.join(home, 'data', 'app.db'));
  assert.equal(c1.workspaceRoots, [path.join(home, 'codebases')]);
  const elsewhere = path.join(tempDir(), 'custom', 'state.db');
  const c2 = loadConfig({ WFCTL_HOME: home, WFCTL_DB: elsewhere });
  openDatabase(c2).close();
  assert.ok(existsSync(elsewhere), 'database created at WFCTL_DB');
  assert.not.ok(existsSync(path.join(home, 'data', 'app.db')), 'nothing at the home default');
});

Open('open :: a file that is not a database is a clear error', () => {
  const dir = tempDir();
  const bad = path.join(dir, 'bad.db');
  writeFileSync(bad, 'this is not sqlite, just text that is long enough to have a header of sorts'.repeat(20));
  try {
    openDatabase({ home: dir, dbPath: bad, busyTimeoutMs: 100 });
    assert.unreachable('should throw');
  } catch (e) {
    assert.is((e as { code?: string }).code, 'DATABASE_UNAVAILABLE');
    assert.match((e as Error).message, /is not a SQLite database/);
    assert.not.match((e as Error).message, /\n/);
  }
});

Open('open :: a folder where the file should be is a clear error', () => {
  const dir = tempDir();
  try {
    openDatabase({ home: dir, dbPath: dir, busyTimeoutMs: 100 });
    assert.unreachable('should throw');
  } catch (e) {
    assert.match((e as Error).message, /is a folder, not a database file/);
  }
});

Migrations.run();
Checks.run();
Open.run();
