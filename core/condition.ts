/**
 * Conditional nodes and skipping (design §5). Pure: the engine passes in what the steps recorded.
 */
import type { Condition, Graph } from './graph.js';
import { WfError } from './errors.js';

/** The source node's recorded outcome, as the condition sees it. */
export interface SourceOutcome {
  status: string;
  output: string;
}

/** Evaluates a condition on the source's outcome; `succeeded` tests the status, the rest the output text. */
export function evaluateCondition(c: Condition, source: SourceOutcome | undefined): boolean {
  const out = source?.output ?? '';
  const value = c.value ?? '';
  switch (c.op) {
    case 'succeeded':
      return source?.status === 'completed';
    case 'contains':
      return out.includes(value);
    case 'not_contains':
      return !out.includes(value);
    case 'equals':
      return out.trim() === value.trim();
    case 'matches':
      return new RegExp(value).test(out);
    default:
      throw new WfError('GRAPH_INVALID', `unknown condition op '${String((c as Condition).op)}'`);
  }
}

/** The node a conditional tests: condition.source, else its single parent. */
export function conditionSource(graph: Graph, nodeId: string): string | undefined {
  const node = graph.nodes.find((n) => n.id === nodeId);
  if (node?.data.condition?.source) return node.data.condition.source;
  const parents = graph.edges.filter((e) => e.target === nodeId).map((e) => e.source);
  return parents.length === 1 ? parents[0] : undefined;
}

/** Latest recorded state of a parent: its step status and, for a conditional, the branch it took. */
export interface ParentState {
  status: string;
  /** 'true' | 'false' for a completed conditional. */
  output?: string | null;
}

/**
 * Whether a node is skipped: it has parents and every incoming edge is dead. An edge is dead when its source
 * was skipped, or when it leaves a conditional on the branch not taken. A node with one live edge runs.
 */
export function isSkipped(graph: Graph, nodeId: string, parents: Map<string, ParentState>): boolean {
  const incoming = graph.edges.filter((e) => e.target === nodeId);
  if (incoming.length === 0) return false;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  return incoming.every((e) => {
    const p = parents.get(e.source);
    if (!p || p.status === 'skipped') return true;
    if (byId.get(e.source)?.type === 'conditional') return String(e.sourceHandle) !== String(p.output ?? '').trim();
    return false;
  });
}
