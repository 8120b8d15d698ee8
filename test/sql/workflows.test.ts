import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Graph } from '../../core/graph.js';
import { copyWorkflow, insertWorkflow, resolveWorkflow, uniqueName, updateWorkflow } from '../../sql/workflows.js';
import { testDb } from '../helpers.js';

const G: Graph = { nodes: [{ id: 'n', type: 'specialistAgent', data: { label: 'L', objective: 'O' } }], edges: [] };
const Workflows = suite('sql/workflows');

Workflows('resolveWorkflow :: id before exact name before slug; user before template', () => {
  const { db } = testDb();
  const t = insertWorkflow(db, { kind: 'template', name: 'Shared', graph: G });
  assert.is(resolveWorkflow(db, 'Shared')!.id, t.id);
  const u = insertWorkflow(db, { kind: 'user', name: 'Shared', graph: G });
  assert.is(resolveWorkflow(db, 'Shared')!.id, u.id);
  assert.is(resolveWorkflow(db, 'SHARED')!.id, u.id, 'slug match');
  assert.is(resolveWorkflow(db, t.id)!.id, t.id);
  // A workflow literally named like another's id still loses to the id.
  insertWorkflow(db, { kind: 'user', name: u.id, graph: G });
  assert.is(resolveWorkflow(db, u.id)!.id, u.id);
  assert.is(resolveWorkflow(db, 'nothing'), undefined);
});

Workflows('uniqueName :: X, then X (2), X (3) by free slug in that tab only', () => {
  const { db } = testDb();
  assert.is(uniqueName(db, 'user', 'Deploy'), 'Deploy');
  insertWorkflow(db, { kind: 'user', name: 'Deploy', graph: G });
  assert.is(uniqueName(db, 'user', 'Deploy'), 'Deploy (2)');
  insertWorkflow(db, { kind: 'user', name: 'Deploy (2)', graph: G });
  assert.is(uniqueName(db, 'user', 'Deploy (2)'), 'Deploy (3)');
  assert.is(uniqueName(db, 'template', 'Deploy'), 'Deploy');
});

Workflows('uniqueName :: a name whose slug is cut at 80 characters still gets a free suffix', () => {
  const { db } = testDb();
  const long = 'a'.repeat(150);
  insertWorkflow(db, { kind: 'user', name: long, graph: G });
  const second = uniqueName(db, 'user', long);
  assert.match(second, / \(2\)$/);
  insertWorkflow(db, { kind: 'user', name: second, graph: G });
  assert.match(uniqueName(db, 'user', long), / \(3\)$/);
});

Workflows('copyWorkflow and updateWorkflow :: the lock is checked in the same transaction as the change', () => {
  const { db } = testDb();
  const w = insertWorkflow(db, { kind: 'user', name: 'Locked', graph: G });
  db.prepare(`INSERT INTO workflow_runs (id, workflow_id, workflow_name, status, workspace_path, graph) VALUES ('r1', ?, 'Locked', 'running', '/x', '{}')`).run(w.id);
  assert.throws(() => updateWorkflow(db, w.id, { description: 'x' }), (e: any) => e.code === 'RUN_ACTIVE');
  assert.throws(() => copyWorkflow(db, w.id, 'template', { lockCheck: true }), (e: any) => e.code === 'RUN_ACTIVE');
  assert.is(copyWorkflow(db, w.id, 'template', { lockCheck: false }).kind, 'template');
  assert.is(db.prepare('SELECT description FROM workflows WHERE id = ?').pluck().get(w.id), '');
});

Workflows.run();
