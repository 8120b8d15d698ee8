/**
 * The workflow graph (design.md §5): React Flow's shape, validation, and levels.
 * Pure: used by the API on save, by the engine at run time and by the builder in the browser.
 */
import { WfError } from './errors.js';

export const AGENT_NODE_TYPES = ['specialistAgent', 'supervisorAgent', 'smartSupervisor', 'reportWriter'] as const;
export const CONTROL_NODE_TYPES = ['aggregator', 'humanApproval', 'conditional'] as const;
export const NODE_TYPES = [...AGENT_NODE_TYPES, ...CONTROL_NODE_TYPES, 'memoryWrite', 'webhook'] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export const AGENTS = ['claude', 'codex', 'gemini'] as const;
export type AgentName = (typeof AGENTS)[number];
export const MEMORY_SCOPES = ['workflow', 'team', 'agent_private'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];
export const APPROVAL_ACTIONS = ['approve', 'reject', 'request_revision'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];
export const CONDITION_OPS = ['contains', 'not_contains', 'matches', 'equals', 'succeeded'] as const;
export const MAX_ITERATIONS_LIMIT = 10;

export interface Condition {
  op: (typeof CONDITION_OPS)[number];
  value?: string;
  /** Node whose output is tested; default the single parent. */
  source?: string;
}

export interface NodeData {
  label: string;
  objective: string;
  role?: string;
  systemInstructions?: string;
  runtime?: 'direct' | 'container';
  /** Container image for runtime 'container' (default WFCTL_AGENT_IMAGE, then the built-in default). */
  image?: string;
  sandboxAgent?: AgentName;
  model?: string;
  skills?: string[];
  memoryScope?: MemoryScope;
  maxIterations?: number;
  delegationStrategy?: 'sequential_delegation' | 'parallel_delegation';
  generatedBy?: string;
  // humanApproval
  allowedActions?: ApprovalAction[];
  noteRequired?: boolean;
  timeoutHours?: number;
  // conditional
  condition?: Condition;
  // webhook
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  // memoryWrite
  key?: string;
  sensitivity?: 'normal' | 'sensitive';
  value?: string;
  [extra: string]: unknown;
}

export interface GraphNode {
  id: string;
  type: NodeType;
  position?: { x: number; y: number };
  data: NodeData;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
  data?: { generatedBy?: string; [k: string]: unknown };
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphProblem {
  node_id?: string;
  edge_id?: string;
  field?: string;
  message: string;
}

export function isAgentNode(type: string): boolean {
  return (AGENT_NODE_TYPES as readonly string[]).includes(type);
}

export function isSupervisor(type: string): boolean {
  return type === 'supervisorAgent' || type === 'smartSupervisor';
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0;

/** Every problem in a graph, each naming the node or edge and what is wrong. Empty means valid. */
export function graphProblems(graph: unknown): GraphProblem[] {
  const problems: GraphProblem[] = [];
  if (!isObj(graph)) return [{ message: 'graph must be an object with "nodes" and "edges" arrays' }];
  const { nodes, edges } = graph as { nodes?: unknown; edges?: unknown };
  if (!Array.isArray(nodes)) problems.push({ message: 'graph.nodes must be an array' });
  if (!Array.isArray(edges)) problems.push({ message: 'graph.edges must be an array' });
  if (problems.length) return problems;
  const nodeList = nodes as unknown[];
  const edgeList = edges as unknown[];
  if (nodeList.length === 0) problems.push({ message: 'a workflow needs at least one node' });

  const byId = new Map<string, GraphNode>();
  nodeList.forEach((raw, i) => {
    if (!isObj(raw)) return problems.push({ message: `node #${i + 1} must be an object` });
    const n = raw as unknown as GraphNode;
    if (!nonEmpty(n.id)) return problems.push({ message: `node #${i + 1} has no id` });
    if (byId.has(n.id)) return problems.push({ node_id: n.id, message: `node id '${n.id}' is used twice` });
    byId.set(n.id, n);
    if (!(NODE_TYPES as readonly string[]).includes(n.type)) {
      problems.push({ node_id: n.id, field: 'type', message: `node '${n.id}' has unknown type '${String(n.type)}' (one of ${NODE_TYPES.join(', ')})` });
    }
    if (!isObj(n.data)) return problems.push({ node_id: n.id, field: 'data', message: `node '${n.id}' has no data object` });
    problems.push(...nodeDataProblems(n));
  });

  const edgeIds = new Set<string>();
  edgeList.forEach((raw, i) => {
    if (!isObj(raw)) return problems.push({ message: `edge #${i + 1} must be an object` });
    const e = raw as unknown as GraphEdge;
    const name = nonEmpty(e.id) ? `'${e.id}'` : `#${i + 1}`;
    if (!nonEmpty(e.id)) problems.push({ message: `edge #${i + 1} has no id` });
    else if (edgeIds.has(e.id)) problems.push({ edge_id: e.id, message: `edge id '${e.id}' is used twice` });
    else edgeIds.add(e.id);
    for (const end of ['source', 'target'] as const) {
      if (!nonEmpty(e[end])) problems.push({ edge_id: e.id, field: end, message: `edge ${name} has no ${end}` });
      else if (!byId.has(e[end])) problems.push({ edge_id: e.id, node_id: e[end], field: end, message: `edge ${name} points to missing node '${e[end]}' (${end})` });
    }
    if (e.source === e.target && nonEmpty(e.source)) problems.push({ edge_id: e.id, node_id: e.source, message: `edge ${name} connects node '${e.source}' to itself` });
    const src = byId.get(e.source);
    if (src?.type === 'conditional' && e.sourceHandle !== 'true' && e.sourceHandle !== 'false') {
      problems.push({ edge_id: e.id, node_id: src.id, field: 'sourceHandle', message: `edge ${name} leaves conditional '${src.id}' without a 'true' or 'false' handle` });
    }
  });

  for (const n of byId.values()) {
    if (n.type !== 'conditional') continue;
    const parents = edgeList.filter((e) => isObj(e) && (e as unknown as GraphEdge).target === n.id).length;
    const source = n.data?.condition?.source;
    if (source !== undefined && !byId.has(source)) {
      problems.push({ node_id: n.id, field: 'condition.source', message: `conditional '${n.id}' tests missing node '${source}'` });
    } else if (source === undefined && parents !== 1) {
      problems.push({ node_id: n.id, field: 'condition.source', message: `conditional '${n.id}' has ${parents} parents; name the node to test in condition.source` });
    }
  }

  if (!problems.some((p) => p.edge_id && p.field && ['source', 'target'].includes(p.field))) {
    const cycle = findCycle([...byId.keys()], edgeList as GraphEdge[]);
    if (cycle) problems.push({ node_id: cycle[0], message: `the graph has a cycle: ${cycle.join(' → ')} → ${cycle[0]}` });
  }
  return problems;
}

function nodeDataProblems(n: GraphNode): GraphProblem[] {
  const d = n.data;
  const out: GraphProblem[] = [];
  const bad = (field: string, message: string) => out.push({ node_id: n.id, field, message: `node '${n.id}': ${message}` });
  if (!nonEmpty(d.label)) bad('label', 'Label is required');
  if (!nonEmpty(d.objective)) bad('objective', 'Objective is required');
  for (const f of ['role', 'systemInstructions', 'model', 'generatedBy', 'value', 'key'] as const) {
    if (d[f] !== undefined && typeof d[f] !== 'string') bad(f, `${f} must be a string`);
  }
  if (d.runtime !== undefined && d.runtime !== 'direct' && d.runtime !== 'container') bad('runtime', `runtime must be 'direct' or 'container'`);
  // An image reference as docker and podman accept it (registry/name:tag or @digest), never an option or a path.
  if (d.image !== undefined && (typeof d.image !== 'string' || !/^[a-z0-9][a-z0-9._\/:@-]{0,254}$/i.test(d.image))) {
    bad('image', 'image must be a container image reference such as ghcr.io/acme/agents:1.2');
  }
  if (d.sandboxAgent !== undefined && !(AGENTS as readonly string[]).includes(d.sandboxAgent)) bad('sandboxAgent', `sandboxAgent must be one of ${AGENTS.join(', ')}`);
  if (d.skills !== undefined && (!Array.isArray(d.skills) || !d.skills.every(nonEmpty))) bad('skills', 'skills must be a list of skill ids');
  if (d.memoryScope !== undefined && !(MEMORY_SCOPES as readonly string[]).includes(d.memoryScope)) bad('memoryScope', `memoryScope must be one of ${MEMORY_SCOPES.join(', ')}`);
  if (d.maxIterations !== undefined && (!Number.isInteger(d.maxIterations) || d.maxIterations < 1 || d.maxIterations > MAX_ITERATIONS_LIMIT)) {
    bad('maxIterations', `maxIterations must be a whole number from 1 to ${MAX_ITERATIONS_LIMIT}`);
  }
  if (d.delegationStrategy !== undefined && d.delegationStrategy !== 'sequential_delegation' && d.delegationStrategy !== 'parallel_delegation') {
    bad('delegationStrategy', `delegationStrategy must be 'sequential_delegation' or 'parallel_delegation'`);
  }
  if (n.type === 'humanApproval') {
    if (d.allowedActions !== undefined && (!Array.isArray(d.allowedActions) || d.allowedActions.length === 0 || !d.allowedActions.every((a) => (APPROVAL_ACTIONS as readonly string[]).includes(a)))) {
      bad('allowedActions', `allowedActions must be a non-empty list of ${APPROVAL_ACTIONS.join(', ')}`);
    }
    if (d.noteRequired !== undefined && typeof d.noteRequired !== 'boolean') bad('noteRequired', 'noteRequired must be true or false');
    if (d.timeoutHours !== undefined && (typeof d.timeoutHours !== 'number' || !(d.timeoutHours > 0) || d.timeoutHours > 24 * 365)) {
      bad('timeoutHours', 'timeoutHours must be a number of hours above 0 (at most a year)');
    }
  }
  if (n.type === 'conditional') {
    const c = d.condition;
    if (!isObj(c) || !(CONDITION_OPS as readonly string[]).includes(String(c.op))) {
      bad('condition', `condition.op must be one of ${CONDITION_OPS.join(', ')}`);
    } else if (c.op !== 'succeeded' && typeof c.value !== 'string') {
      bad('condition.value', `condition '${c.op}' needs a value`);
    } else if (c.op === 'matches') {
      try {
        new RegExp(String(c.value));
      } catch {
        bad('condition.value', `condition.value is not a valid regular expression`);
      }
    }
  }
  if (n.type === 'webhook') {
    let ok = false;
    try {
      ok = typeof d.url === 'string' && /^https?:$/.test(new URL(d.url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) bad('url', 'url must be an http(s) URL');
    if (d.method !== undefined && !['POST', 'PUT', 'PATCH'].includes(String(d.method).toUpperCase())) bad('method', 'method must be POST, PUT or PATCH');
    if (d.headers !== undefined && (!isObj(d.headers) || !Object.values(d.headers).every((v) => typeof v === 'string'))) bad('headers', 'headers must map names to strings');
    if (d.timeoutMs !== undefined && (!Number.isInteger(d.timeoutMs) || d.timeoutMs < 100 || d.timeoutMs > 600_000)) bad('timeoutMs', 'timeoutMs must be from 100 to 600000');
  }
  if (n.type === 'memoryWrite' && d.sensitivity !== undefined && d.sensitivity !== 'normal' && d.sensitivity !== 'sensitive') {
    bad('sensitivity', `sensitivity must be 'normal' or 'sensitive'`);
  }
  return out;
}

/** A cycle as a list of node ids, or undefined. */
export function findCycle(nodeIds: string[], edges: Pick<GraphEdge, 'source' | 'target'>[]): string[] | undefined {
  const out = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const e of edges) out.get(e.source)?.push(e.target);
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, 1);
    stack.push(id);
    for (const next of out.get(id) ?? []) {
      if (state.get(next) === 1) return stack.slice(stack.indexOf(next));
      if (!state.has(next)) {
        const c = visit(next);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(id, 2);
    return undefined;
  };
  for (const id of nodeIds) {
    if (!state.has(id)) {
      const c = visit(id);
      if (c) return c;
    }
  }
  return undefined;
}

/** Throws GRAPH_INVALID (422) naming the first problem; `details.problems` lists them all. */
export function assertValidGraph(graph: unknown): asserts graph is Graph {
  const problems = graphProblems(graph);
  if (problems.length) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new WfError('GRAPH_INVALID', problems[0].message + more, { problems });
  }
}

export interface Level {
  index: number;
  depth: number;
  /** Node ids in fixed order (their order in graph.nodes). */
  nodeIds: string[];
  /** An approval level holds exactly one humanApproval node. */
  approval: boolean;
}

export function parentsOf(graph: Graph, id: string): string[] {
  return graph.edges.filter((e) => e.target === id).map((e) => e.source);
}

export function childrenOf(graph: Graph, id: string): GraphEdge[] {
  return graph.edges.filter((e) => e.source === id);
}

/** depth(node) = max(depth(parents)) + 1, roots 0. The graph must be acyclic. */
export function depths(graph: Graph): Map<string, number> {
  const depth = new Map<string, number>();
  const parents = new Map<string, string[]>(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) parents.get(e.target)?.push(e.source);
  const visit = (id: string, guard: number): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (guard > graph.nodes.length) throw new WfError('GRAPH_INVALID', `the graph has a cycle through node '${id}'`);
    const ps = parents.get(id) ?? [];
    const d = ps.length ? Math.max(...ps.map((p) => visit(p, guard + 1))) + 1 : 0;
    depth.set(id, d);
    return d;
  };
  for (const n of graph.nodes) visit(n.id, 0);
  return depth;
}

/**
 * Levels in execution order: nodes grouped by depth in graph order; each humanApproval node forms a level of
 * its own, placed after the other nodes of its depth.
 */
export function computeLevels(graph: Graph): Level[] {
  const depth = depths(graph);
  const maxDepth = Math.max(-1, ...depth.values());
  const levels: Level[] = [];
  for (let d = 0; d <= maxDepth; d++) {
    const atDepth = graph.nodes.filter((n) => depth.get(n.id) === d);
    const work = atDepth.filter((n) => n.type !== 'humanApproval').map((n) => n.id);
    if (work.length) levels.push({ index: levels.length, depth: d, nodeIds: work, approval: false });
    for (const gate of atDepth.filter((n) => n.type === 'humanApproval')) {
      levels.push({ index: levels.length, depth: d, nodeIds: [gate.id], approval: true });
    }
  }
  return levels;
}

/** MAX_PARALLEL_NODES: 3 when the first supervisor in level order delegates in parallel, else 1. */
export function maxParallelNodes(graph: Graph, levels: Level[] = computeLevels(graph)): 1 | 3 {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const level of levels) {
    for (const id of level.nodeIds) {
      const n = byId.get(id);
      if (n && isSupervisor(n.type)) return n.data.delegationStrategy === 'parallel_delegation' ? 3 : 1;
    }
  }
  return 1;
}

/** Lower-case, dash-separated form used to resolve a workflow by name (`Feature Delivery` → `feature-delivery`). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'workflow';
}
