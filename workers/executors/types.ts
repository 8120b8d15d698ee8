/** What a node executor gets and gives. Executors return the node's output text or throw. */
import type { Config } from '../../core/config.js';
import type { Graph, GraphNode } from '../../core/graph.js';
import type { DB } from '../../sql/db.js';
import type { RunRow } from '../../sql/runs.js';
import type { StepRow } from '../../sql/steps.js';

export interface NodeContext {
  db: DB;
  config: Config;
  run: RunRow;
  graph: Graph;
  node: GraphNode;
  step: StepRow;
  /** Aborted when the run is cancelled (the progress poller); executors must stop promptly. */
  signal: AbortSignal;
  /** Latest step of every node of the run so far (parents' outputs and statuses). */
  latest: Map<string, StepRow>;
}

export type NodeExecutor = (ctx: NodeContext) => Promise<string>;

/** Thrown when a node stops because its run was cancelled (never retried, never a node failure). */
export class NodeCancelled extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'NodeCancelled';
  }
}

/** Parents of the node in graph order, each with its latest recorded output (completed parents only). */
export function parentOutputs(ctx: Pick<NodeContext, 'graph' | 'node' | 'latest'>): Array<{ id: string; label: string; output: string }> {
  const parentIds = new Set(ctx.graph.edges.filter((e) => e.target === ctx.node.id).map((e) => e.source));
  return ctx.graph.nodes
    .filter((n) => parentIds.has(n.id))
    .map((n) => ({ id: n.id, label: n.data.label, step: ctx.latest.get(n.id) }))
    .filter((p) => p.step?.status === 'completed')
    .map((p) => ({ id: p.id, label: p.label, output: p.step!.output ?? '' }));
}

/** Parents' outputs as one text block: a heading per parent, in graph order. */
export function joinOutputs(parts: Array<{ id: string; label: string; output: string }>): string {
  return parts.map((p) => `## ${p.label} (${p.id})\n\n${p.output.trim()}`).join('\n\n');
}
