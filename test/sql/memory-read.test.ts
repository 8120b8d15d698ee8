import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MASK, clearRunMemory, readRunMemory } from '../../sql/memory-read.js';
import { testDb } from '../helpers.js';

const Memory = suite('sql/memory-read');

Memory('readRunMemory :: masks sensitive values unless revealed; clear counts; unknown run throws RUN_NOT_FOUND', () => {
  const { db } = testDb();
  db.prepare(`INSERT INTO workflow_runs (id, workflow_name, status, workspace_path, graph) VALUES ('r', 'w', 'completed', '/x', '{}')`).run();
  const add = db.prepare(`INSERT INTO memory_entries (id, run_id, node_id, key, value, sensitivity) VALUES (?, 'r', 'n', ?, ?, ?)`);
  add.run('1', 'a', 'plain', 'normal');
  add.run('2', 'b', 'secret', 'sensitive');
  assert.equal(readRunMemory(db, 'r', false).map((e) => e.value), ['plain', MASK]);
  assert.equal(readRunMemory(db, 'r', true).map((e) => e.value), ['plain', 'secret']);
  assert.is(clearRunMemory(db, 'r'), 2);
  assert.throws(() => readRunMemory(db, 'missing', false), (e: any) => e.code === 'RUN_NOT_FOUND');
});

Memory.run();
