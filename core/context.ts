/**
 * The run context (design §6): node summaries joined after each level, in fixed node order, and the filter
 * that decides which of them a later node may read according to the writer's memory scope. Pure.
 */
import type { Graph, GraphNode, MemoryScope } from './graph.js';

/** One summary in a run's accumulated context (stored as JSON on workflow_runs.context). */
export interface ContextEntry {
  node_id: string;
  label: string;
  level: number;
  scope: MemoryScope;
  /** The writer's team: its generatedBy supervisor, or its own id (a supervisor heads its own team). */
  team: string;
  summary: string;
}

/** Longest summary kept in the context, in characters; the full output stays on the step row. */
export const SUMMARY_MAX_CHARS = 4000;

export function teamOf(node: Pick<GraphNode, 'id' | 'data'>): string {
  return typeof node.data.generatedBy === 'string' && node.data.generatedBy ? node.data.generatedBy : node.id;
}

export function summarize(output: string): string {
  const t = output.trim();
  return t.length > SUMMARY_MAX_CHARS ? t.slice(0, SUMMARY_MAX_CHARS) + ' …[truncated]' : t;
}

/**
 * Appends the summaries of a finished level to the context, in the level's fixed node order (graph order),
 * whatever order the nodes finished in. Only completed nodes contribute.
 */
export function joinLevel(
  context: ContextEntry[],
  graph: Graph,
  level: { index: number; nodeIds: string[] },
  outputs: Map<string, string>,
): ContextEntry[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const added: ContextEntry[] = [];
  for (const id of level.nodeIds) {
    const out = outputs.get(id);
    const node = byId.get(id);
    if (out === undefined || !node) continue;
    // A re-run level (crash, resume) replaces the node's earlier entry instead of duplicating it.
    added.push({ node_id: id, label: node.data.label, level: level.index, scope: node.data.memoryScope ?? 'workflow', team: teamOf(node), summary: summarize(out) });
  }
  const replaced = new Set(added.map((e) => e.node_id));
  return [...context.filter((e) => !replaced.has(e.node_id)), ...added];
}

/**
 * The entries `reader` may see: `workflow` → every later node; `team` → nodes of the writer's team (same
 * generatedBy supervisor, or the supervisor itself); `agent_private` → only the writer itself (retries, resume).
 */
export function visibleContext(context: ContextEntry[], reader: Pick<GraphNode, 'id' | 'data'>): ContextEntry[] {
  const team = teamOf(reader);
  return context.filter((e) => {
    if (e.scope === 'workflow') return true;
    if (e.scope === 'team') return e.team === team;
    return e.node_id === reader.id;
  });
}
