/**
 * Workflow queries (design.md §9): user workflows and templates, resolution by id / exact name / slug, the
 * active-run lock and the run history. Runs are written by the engine; this module only reads them, except
 * that every change to a workflow checks the lock inside the same immediate transaction as the change.
 */
import { randomUUID } from 'node:crypto';
import { slugify, type Graph } from '../core/graph.js';
import { WfError } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { stmt } from './stmt.js';

export type WorkflowKind = 'user' | 'template';
export const ACTIVE_RUN_STATUSES = ['queued', 'running', 'waiting_approval'] as const;

export interface ActiveRun {
  id: string;
  status: (typeof ACTIVE_RUN_STATUSES)[number];
}

export interface Workflow {
  id: string;
  kind: WorkflowKind;
  name: string;
  slug: string;
  description: string;
  graph: Graph;
  builtin: boolean;
  builtin_key: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  active_run: ActiveRun | null;
}

interface Row extends Omit<Workflow, 'graph' | 'builtin' | 'active_run'> {
  graph: string;
  active_run_id: string | null;
  active_run_status: ActiveRun['status'] | null;
}

const ACTIVE = `('queued', 'running', 'waiting_approval')`;
// The newest active run of each workflow, joined in one query (workflow_runs_workflow_time covers it).
const SELECT = `SELECT w.id, w.kind, w.name, w.slug, w.description, w.graph, w.builtin_key, w.created_by, w.created_at, w.updated_at,
  (SELECT r.id FROM workflow_runs r WHERE r.workflow_id = w.id AND r.status IN ${ACTIVE} ORDER BY r.created_at DESC, r.rowid DESC LIMIT 1) AS active_run_id,
  (SELECT r.status FROM workflow_runs r WHERE r.workflow_id = w.id AND r.status IN ${ACTIVE} ORDER BY r.created_at DESC, r.rowid DESC LIMIT 1) AS active_run_status
  FROM workflows w`;

function toWorkflow(r: Row): Workflow {
  return {
    id: r.id, kind: r.kind, name: r.name, slug: r.slug, description: r.description, graph: JSON.parse(r.graph) as Graph,
    builtin: r.builtin_key !== null, builtin_key: r.builtin_key, created_by: r.created_by, created_at: r.created_at, updated_at: r.updated_at,
    active_run: r.active_run_id ? { id: r.active_run_id, status: r.active_run_status! } : null,
  };
}

export function listWorkflows(db: DB, kind: WorkflowKind): Workflow[] {
  return (stmt(db, `${SELECT} WHERE w.kind = ? ORDER BY w.name COLLATE NOCASE, w.id`).all(kind) as Row[]).map(toWorkflow);
}

export function getWorkflowById(db: DB, id: string): Workflow | undefined {
  const r = stmt(db, `${SELECT} WHERE w.id = ?`).get(id) as Row | undefined;
  return r && toWorkflow(r);
}

/** By id, then exact name, then slug; on a tie between tabs the user workflow wins (spec §4 CLI rule 1). */
export function resolveWorkflow(db: DB, idOrName: string): Workflow | undefined {
  const r = (stmt(db, `${SELECT} WHERE w.id = ?`).get(idOrName) ??
    stmt(db, `${SELECT} WHERE w.name = ? ORDER BY w.kind = 'user' DESC LIMIT 1`).get(idOrName) ??
    stmt(db, `${SELECT} WHERE w.slug = ? ORDER BY w.kind = 'user' DESC LIMIT 1`).get(slugify(idOrName))) as Row | undefined;
  return r && toWorkflow(r);
}

export function requireWorkflow(db: DB, idOrName: string): Workflow {
  const w = resolveWorkflow(db, idOrName);
  if (!w) throw new WfError('WORKFLOW_NOT_FOUND', `no workflow with id, name or slug '${idOrName}'`);
  return w;
}

function activeRun(db: DB, workflowId: string): ActiveRun | undefined {
  return db.prepare(`SELECT id, status FROM workflow_runs WHERE workflow_id = ? AND status IN ${ACTIVE} ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(workflowId) as ActiveRun | undefined;
}

function assertNoActiveRun(db: DB, w: { id: string; name: string }, action: string): void {
  const run = activeRun(db, w.id);
  if (run) throw new WfError('RUN_ACTIVE', `cannot ${action} '${w.name}' while run ${run.id} is ${run.status.replace('_', ' ')}; wait for it to finish or cancel it`, { run_id: run.id, status: run.status });
}

function slugTaken(db: DB, kind: WorkflowKind, slug: string, exceptId?: string): boolean {
  return db.prepare('SELECT 1 FROM workflows WHERE kind = ? AND slug = ? AND id IS NOT ?').get(kind, slug, exceptId ?? null) !== undefined;
}

function nameTaken(kind: WorkflowKind, name: string): WfError {
  return new WfError('NAME_TAKEN', `a ${kind === 'template' ? 'template' : 'workflow'} named '${name}' (or with the same slug '${slugify(name)}') exists; choose another name`);
}

/** `X`, else `X (2)`, `X (3)`, … : the first name whose slug is free in that tab. */
export function uniqueName(db: DB, kind: WorkflowKind, base: string): string {
  if (!slugTaken(db, kind, slugify(base))) return base;
  // slugify keeps 80 characters: shorten the stem so the " (n)" suffix always reaches the slug.
  let stem = base.replace(/ \(\d+\)$/, '').slice(0, 190);
  while (slugify(stem).length > 70) stem = stem.slice(0, -1);
  for (let i = 2; i < 10_000; i++) {
    const name = `${stem} (${i})`;
    if (!slugTaken(db, kind, slugify(name))) return name;
  }
  throw new WfError('NAME_TAKEN', `no free name left for '${base}'; give the copy a name`);
}

export interface WorkflowInput {
  kind: WorkflowKind;
  name: string;
  description?: string;
  graph: Graph;
  created_by?: string | null;
}

export function insertWorkflow(db: DB, input: WorkflowInput): Workflow {
  const id = randomUUID();
  const slug = slugify(input.name);
  const now = nowIso();
  db.transaction(() => {
    if (slugTaken(db, input.kind, slug)) throw nameTaken(input.kind, input.name);
    db.prepare(`INSERT INTO workflows (id, kind, name, slug, description, graph, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      id, input.kind, input.name, slug, input.description ?? '', JSON.stringify(input.graph), input.created_by ?? null, now, now,
    );
  }).immediate();
  return getWorkflowById(db, id)!;
}

export function updateWorkflow(db: DB, id: string, patch: { name?: string; description?: string; graph?: Graph }): Workflow {
  db.transaction(() => {
    const w = getWorkflowById(db, id);
    if (!w) throw new WfError('WORKFLOW_NOT_FOUND', `no workflow with id '${id}'`);
    assertNoActiveRun(db, w, 'edit');
    const name = patch.name ?? w.name;
    const slug = slugify(name);
    if (patch.name !== undefined && slugTaken(db, w.kind, slug, id)) throw nameTaken(w.kind, name);
    db.prepare('UPDATE workflows SET name = ?, slug = ?, description = ?, graph = ?, updated_at = ? WHERE id = ?').run(
      name, slug, patch.description ?? w.description, JSON.stringify(patch.graph ?? w.graph), nowIso(), id,
    );
  }).immediate();
  return getWorkflowById(db, id)!;
}

export function deleteWorkflow(db: DB, id: string): void {
  db.transaction(() => {
    const w = getWorkflowById(db, id);
    if (!w) throw new WfError('WORKFLOW_NOT_FOUND', `no workflow with id '${id}'`);
    assertNoActiveRun(db, w, 'delete');
    db.prepare('DELETE FROM workflows WHERE id = ?').run(id);
  }).immediate();
}

/**
 * Copies a workflow into the other tab: publish (user → template) or use (template → user). Without a name the
 * copy gets the first free `X`, `X (2)`, …; a given name that is taken is a 409.
 */
export function copyWorkflow(db: DB, id: string, to: WorkflowKind, opts: { name?: string; created_by?: string | null; lockCheck: boolean }): Workflow {
  const newId = randomUUID();
  db.transaction(() => {
    const w = getWorkflowById(db, id);
    if (!w) throw new WfError('WORKFLOW_NOT_FOUND', `no workflow with id '${id}'`);
    if (opts.lockCheck) assertNoActiveRun(db, w, 'publish');
    let name = opts.name;
    if (name !== undefined && slugTaken(db, to, slugify(name))) throw nameTaken(to, name);
    name ??= uniqueName(db, to, w.name);
    const now = nowIso();
    db.prepare(`INSERT INTO workflows (id, kind, name, slug, description, graph, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      newId, to, name, slugify(name), w.description, JSON.stringify(w.graph), opts.created_by ?? null, now, now,
    );
  }).immediate();
  return getWorkflowById(db, newId)!;
}

export interface RunSummary {
  id: string;
  status: string;
  workflow_id: string | null;
  workflow_name: string;
  workspace_path: string;
  write: boolean;
  executor: string;
  error: string | null;
  pull_request_url: string | null;
  branch: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** The most recent runs of a workflow, newest first. */
export function workflowRuns(db: DB, workflowId: string, limit: number): RunSummary[] {
  const rows = db.prepare(
    `SELECT id, status, workflow_id, workflow_name, workspace_path, write, executor, error, pull_request_url, branch, created_at, started_at, completed_at
     FROM workflow_runs WHERE workflow_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  ).all(workflowId, limit) as Array<Omit<RunSummary, 'write'> & { write: number }>;
  return rows.map((r) => ({ ...r, write: r.write === 1 }));
}
