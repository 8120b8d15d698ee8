// Schema drift: applying every migration to an empty database must give exactly test/fixtures/schema.sql.
// After adding a migration, regenerate it with: UPDATE_SCHEMA=1 node dist/test/sql/schema.test.js
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '../../sql/db.js';
import { ROOT } from '../helpers.js';

const Schema = suite('sql/schema');
const fixture = path.join(ROOT, 'test', 'fixtures', 'schema.sql');

function dump(): string {
  const db = new Database(':memory:');
  migrate(db);
  const rows = db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name`)
    .all() as { type: string; name: string; sql: string }[];
  db.close();
  return rows.map((r) => `-- ${r.type} ${r.name}\n${r.sql};\n`).join('\n');
}

Schema('schema :: migrations produce the committed schema', () => {
  const actual = dump();
  if (process.env.UPDATE_SCHEMA) writeFileSync(fixture, actual);
  assert.fixture(actual, readFileSync(fixture, 'utf8'));
});

Schema.run();
