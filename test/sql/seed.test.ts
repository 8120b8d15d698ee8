import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSeedData, seed } from '../../sql/seed.js';
import { openDatabase } from '../../sql/db.js';
import { testConfig } from '../helpers.js';

const Seed = suite('sql/seed');

const count = (db: ReturnType<typeof openDatabase>, sql: string) => db.prepare(sql).pluck().get() as number;

Seed('seed :: a fresh database gets every built-in', () => {
  const data = loadSeedData();
  assert.ok(data.skills.length >= 6, 'at least six skills');
  assert.ok(data.templates.length >= 4, 'at least four templates');
  assert.equal(data.agents.map((a) => a.name).sort(), ['claude', 'codex', 'gemini']);
  const db = openDatabase(testConfig());
  assert.equal(seed(db), { skills: data.skills.length, templates: data.templates.length, agents: 3 });
  assert.is(count(db, `SELECT count(*) FROM skills WHERE builtin_key IS NOT NULL`), data.skills.length);
  assert.is(count(db, `SELECT count(*) FROM workflows WHERE kind = 'template' AND builtin_key IS NOT NULL`), data.templates.length);
  const models = JSON.parse(db.prepare(`SELECT models FROM agent_definitions WHERE name = 'codex'`).pluck().get() as string);
  assert.ok(models.includes('gpt-5.5'));
  for (const key of ['code-review', 'test-writing', 'security-review', 'refactoring', 'documentation', 'planning']) {
    assert.ok(db.prepare('SELECT 1 FROM skills WHERE builtin_key = ?').get(key), `skill ${key}`);
  }
  db.close();
});

Seed('seed :: seeding again inserts nothing', () => {
  const db = openDatabase(testConfig());
  seed(db);
  assert.equal(seed(db), { skills: 0, templates: 0, agents: 0 });
  db.close();
});

Seed('seed :: an edited built-in keeps its edits across restarts', () => {
  const config = testConfig();
  let db = openDatabase(config);
  seed(db);
  db.prepare(`UPDATE skills SET prompt_template = 'our own review rules' WHERE builtin_key = 'code-review'`).run();
  db.prepare(`UPDATE workflows SET description = 'tuned for our monorepo' WHERE builtin_key = 'bug-fix'`).run();
  db.close();
  db = openDatabase(config);
  seed(db);
  assert.is(db.prepare(`SELECT prompt_template FROM skills WHERE builtin_key = 'code-review'`).pluck().get(), 'our own review rules');
  assert.is(db.prepare(`SELECT description FROM workflows WHERE builtin_key = 'bug-fix'`).pluck().get(), 'tuned for our monorepo');
  db.close();
});

Seed('seed :: a deleted built-in comes back with the same id', () => {
  const config = testConfig();
  let db = openDatabase(config);
  seed(db);
  const id = db.prepare(`SELECT id FROM skills WHERE builtin_key = 'security-review'`).pluck().get();
  db.prepare(`DELETE FROM skills WHERE builtin_key = 'security-review'`).run();
  db.prepare(`DELETE FROM workflows WHERE builtin_key = 'code-review'`).run();
  db.prepare(`DELETE FROM agent_definitions WHERE name = 'gemini'`).run();
  db.close();
  db = openDatabase(config);
  assert.equal(seed(db), { skills: 1, templates: 1, agents: 1 });
  assert.is(db.prepare(`SELECT id FROM skills WHERE builtin_key = 'security-review'`).pluck().get(), id);
  assert.ok(db.prepare(`SELECT 1 FROM workflows WHERE builtin_key = 'code-review' AND kind = 'template'`).get());
  db.close();
});

Seed('seed :: a user template holding a built-in name does not block the built-in', () => {
  const db = openDatabase(testConfig());
  seed(db);
  db.prepare(`DELETE FROM workflows WHERE builtin_key = 'bug-fix'`).run();
  db.prepare(`INSERT INTO workflows (id, kind, name, slug, graph) VALUES ('mine', 'template', 'Bug fix', 'bug-fix', '{"nodes":[],"edges":[]}')`).run();
  seed(db);
  const names = db.prepare(`SELECT name FROM workflows WHERE kind = 'template' AND slug LIKE 'bug-fix%' ORDER BY name`).pluck().all();
  assert.equal(names, ['Bug fix', 'Bug fix (built-in)']);
  db.close();
});

Seed('seed :: templates reference only built-in skills that exist', () => {
  const data = loadSeedData();
  const skillIds = new Set(data.skills.map((s) => `builtin-${s.key}`));
  for (const t of data.templates) {
    for (const n of t.graph.nodes) for (const s of n.data.skills ?? []) assert.ok(skillIds.has(s), `${t.key}/${n.id} names skill ${s}`);
  }
});

Seed.run();
