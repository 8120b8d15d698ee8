/**
 * Growing a run's graph snapshot (run-time planning by a smartSupervisor). The read, the change and the write
 * happen in one BEGIN IMMEDIATE transaction, so two supervisors planning in the same level cannot lose each
 * other's nodes; the `run.graph` event is written in the same transaction.
 */
import type { Graph } from '../core/graph.js';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { appendEvent } from './events.js';
import { json, stmt } from './stmt.js';

/**
 * Applies `change` to the run's current graph and stores the result with a `run.graph` event whose payload is
 * `{ node_id, added_nodes, added_edges, graph }`. `change` must be pure and quick (it runs under the write lock).
 * Returns the new graph.
 */
export function growRunGraph(db: DB, runId: string, nodeId: string, change: (g: Graph) => Graph): Graph {
  return db.transaction(() => {
    const row = stmt(db, 'SELECT graph FROM workflow_runs WHERE id = ?').get(runId) as { graph: string } | undefined;
    if (!row) throw new Error(`run ${runId} not found`);
    const before = json<Graph>(row.graph, { nodes: [], edges: [] });
    const after = change(before);
    const oldNodes = new Set(before.nodes.map((n) => n.id));
    const oldEdges = new Set(before.edges.map((e) => e.id));
    stmt(db, 'UPDATE workflow_runs SET graph = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(after), nowIso(), runId);
    appendEvent(db, runId, 'run.graph', {
      node_id: nodeId,
      added_nodes: after.nodes.filter((n) => !oldNodes.has(n.id)).map((n) => n.id),
      added_edges: after.edges.filter((e) => !oldEdges.has(e.id)).map((e) => e.id),
      graph: after,
    });
    return after;
  }).immediate();
}
