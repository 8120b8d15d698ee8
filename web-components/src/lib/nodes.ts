/**
 * Builder rules for node types: palette groups, default data for a new node, which inspector fields a type has,
 * and per-field validation messages (client side, on top of core/graph.ts's graphProblems which the server
 * runs too), plus grouping of the server's 422 problems by node.
 */
import { graphProblems, type Graph, type GraphNode, type GraphProblem, type NodeData, type NodeType } from '../../../core/graph.js';

export interface PaletteItem {
  type: NodeType;
  label: string;
  description: string;
}
export interface PaletteGroup {
  name: 'Agents' | 'Control Flow' | 'Memory' | 'Notifications';
  items: PaletteItem[];
}

export const PALETTE_GROUPS: readonly PaletteGroup[] = [
  {
    name: 'Agents',
    items: [
      { type: 'specialistAgent', label: 'Specialist agent', description: 'Runs one coding agent on a focused objective' },
      { type: 'supervisorAgent', label: 'Supervisor', description: 'Delegates to the specialists after it' },
      { type: 'smartSupervisor', label: 'Smart supervisor', description: 'Plans a subgraph of specialists from its objective' },
      { type: 'reportWriter', label: 'Report writer', description: 'Writes the final report from earlier outputs' },
    ],
  },
  {
    name: 'Control Flow',
    items: [
      { type: 'humanApproval', label: 'Human approval', description: 'Pauses the run until a reviewer decides' },
      { type: 'conditional', label: 'Conditional', description: 'Takes the true or the false branch' },
      { type: 'aggregator', label: 'Aggregator', description: 'Joins the outputs of its parents' },
    ],
  },
  { name: 'Memory', items: [{ type: 'memoryWrite', label: 'Memory write', description: 'Stores a value in the run memory' }] },
  { name: 'Notifications', items: [{ type: 'webhook', label: 'Webhook', description: 'Posts a payload to a URL' }] },
];

const AGENT_TYPES: readonly string[] = ['specialistAgent', 'supervisorAgent', 'smartSupervisor', 'reportWriter'];

/** Display name of a node type. */
export function typeLabel(type: string): string {
  for (const g of PALETTE_GROUPS) for (const i of g.items) if (i.type === type) return i.label;
  return type;
}

export function isAgentType(type: string): boolean {
  return AGENT_TYPES.includes(type);
}
export function isSupervisorType(type: string): boolean {
  return type === 'supervisorAgent' || type === 'smartSupervisor';
}

/** Inspector sections a node type shows, in order. */
export type FieldGroup = 'basics' | 'agent' | 'supervisor' | 'approval' | 'condition' | 'webhook' | 'memory';
export function fieldGroups(type: string): FieldGroup[] {
  const g: FieldGroup[] = ['basics'];
  if (isAgentType(type)) g.push('agent');
  if (isSupervisorType(type)) g.push('supervisor');
  if (type === 'humanApproval') g.push('approval');
  if (type === 'conditional') g.push('condition');
  if (type === 'webhook') g.push('webhook');
  if (type === 'memoryWrite') g.push('memory');
  return g;
}

/** Data of a freshly dropped node: an empty label and objective, so validation asks for them. */
export function defaultNodeData(type: NodeType): NodeData {
  const d: NodeData = { label: '', objective: '' };
  if (isAgentType(type)) Object.assign(d, { runtime: 'direct', sandboxAgent: 'claude', memoryScope: 'workflow', maxIterations: 1, skills: [] });
  if (isSupervisorType(type)) d.delegationStrategy = 'sequential_delegation';
  if (type === 'humanApproval') Object.assign(d, { allowedActions: ['approve', 'reject', 'request_revision'], noteRequired: false, timeoutHours: 24 });
  if (type === 'conditional') d.condition = { op: 'succeeded' };
  if (type === 'webhook') Object.assign(d, { url: '', method: 'POST' });
  if (type === 'memoryWrite') Object.assign(d, { key: '', memoryScope: 'workflow', sensitivity: 'normal' });
  return d;
}

/** A node id not yet used in the graph: `<type>-<n>`. */
export function nextNodeId(graph: Graph, type: string): string {
  const used = new Set(graph.nodes.map((n) => n.id));
  for (let i = 1; ; i++) {
    const id = `${type}-${i}`;
    if (!used.has(id)) return id;
  }
}

/** Field → message for one node, from the same rules the server applies (label and objective first). */
export function nodeFieldErrors(node: GraphNode): Record<string, string> {
  const out: Record<string, string> = {};
  const probs = graphProblems({ nodes: [node], edges: [] }).filter((p) => p.node_id === node.id && p.field);
  for (const p of probs) {
    const field = p.field!;
    if (out[field]) continue;
    out[field] = p.message.replace(/^node '[^']*': /, '');
  }
  return out;
}

/** Problems (from the server's 422 or graphProblems) grouped by node id; problems without a node go under ''. */
export function problemsByNode(problems: readonly GraphProblem[]): Map<string, GraphProblem[]> {
  const m = new Map<string, GraphProblem[]>();
  for (const p of problems) {
    const k = p.node_id ?? '';
    const list = m.get(k) ?? [];
    list.push(p);
    m.set(k, list);
  }
  return m;
}

/** Parses a 422 error body's details.problems into a problem list (tolerates a missing or odd shape). */
export function problemsFromError(details: unknown): GraphProblem[] {
  const raw = (details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null && typeof (p as { message?: unknown }).message === 'string')
    .map((p) => ({
      message: String(p.message),
      ...(typeof p.node_id === 'string' ? { node_id: p.node_id } : {}),
      ...(typeof p.edge_id === 'string' ? { edge_id: p.edge_id } : {}),
      ...(typeof p.field === 'string' ? { field: p.field } : {}),
    }));
}

/**
 * Merges a planner answer into the graph: the supervisor's previously generated nodes and edges are replaced,
 * manual ones are never removed (spec §4 Planning, rule 4). Returned nodes and edges are tagged generatedBy.
 */
export function mergePlan(graph: Graph, supervisorId: string, plan: { nodes: unknown; edges: unknown }): Graph {
  const nodes = (Array.isArray(plan.nodes) ? plan.nodes : []) as GraphNode[];
  const edges = (Array.isArray(plan.edges) ? plan.edges : []) as Graph['edges'];
  const keepNodes = graph.nodes.filter((n) => n.data.generatedBy !== supervisorId);
  const keepIds = new Set(keepNodes.map((n) => n.id));
  const newNodes = nodes.filter((n) => !keepIds.has(n.id)).map((n) => ({ ...n, data: { ...n.data, generatedBy: supervisorId } }));
  const allIds = new Set([...keepIds, ...newNodes.map((n) => n.id)]);
  const keepEdges = graph.edges.filter((e) => e.data?.generatedBy !== supervisorId && allIds.has(e.source) && allIds.has(e.target));
  const newEdges = edges
    .filter((e) => allIds.has(e.source) && allIds.has(e.target))
    .map((e) => ({ ...e, data: { ...e.data, generatedBy: supervisorId } }));
  return { nodes: [...keepNodes, ...newNodes], edges: [...keepEdges, ...newEdges] };
}

/**
 * Whether a planning answer is the whole merged workflow (what the server returns: every node kept by hand is in
 * it) rather than only the generated subgraph, which then still has to be merged with mergePlan().
 */
export function isFullGraph(graph: Graph, supervisorId: string, answer: { nodes: unknown }): boolean {
  if (!Array.isArray(answer.nodes)) return false;
  const ids = new Set((answer.nodes as Array<{ id?: unknown }>).map((n) => n?.id));
  return ids.has(supervisorId) && graph.nodes.every((n) => n.data.generatedBy === supervisorId || ids.has(n.id));
}
