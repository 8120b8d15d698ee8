/**
 * Supervisor planning, the graph half (spec §4 "Planning" rules 4 and 5): a validated plan becomes specialist
 * nodes and edges tagged `generatedBy = <supervisor id>`, merged into a workflow so that only this
 * supervisor's earlier generated elements are replaced and nothing made by hand is touched. Pure.
 */
import { WfError } from './errors.js';
import { findCycle, type AgentName, type Graph, type GraphEdge, type GraphNode, type NodeData } from './graph.js';
import type { Plan, Subtask } from './plan.js';

/** Pixels between depth rows and between columns, so the builder shows the plan as a readable tree. */
export const ROW_GAP = 150;
export const COLUMN_GAP = 260;

export interface BuildOptions {
  supervisorId: string;
  /** Where the supervisor sits; generated nodes are laid out below it. */
  origin?: { x: number; y: number };
  /** Specialists inherit the supervisor's runtime and agent. */
  runtime?: 'direct' | 'container';
  agent?: AgentName;
  model?: string;
  /** Ids already used by nodes or edges that stay; generated ids avoid them. */
  takenIds?: Iterable<string>;
}

const tagOf = (x: { data?: { generatedBy?: unknown } }): unknown => x.data?.generatedBy;

/** Node id for a subtask: readable, stable across re-plans (so manual edges to it survive), unique. */
function idFor(supervisorId: string, subtaskId: string, taken: Set<string>): string {
  const base = `${supervisorId}-${subtaskId.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'task'}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/**
 * The generated subgraph of a plan (rules 4–5): a specialist without dependencies gets an edge from the
 * supervisor, the others an edge from each subtask they depend on; an approval gate sits after the subtasks it
 * covers (default: every sink), a memory node after its subtasks (default: the gate if planned, else every
 * sink). Every node and edge carries data.generatedBy = supervisorId. Positions are laid out by depth.
 */
export function buildPlanGraph(plan: Plan, opts: BuildOptions): Graph {
  const sup = opts.supervisorId;
  const taken = new Set<string>([sup, ...(opts.takenIds ?? [])]);
  const nodeIdOf = new Map<string, string>();
  for (const s of plan.subtasks) nodeIdOf.set(s.id, idFor(sup, s.id, taken));

  const nodes: GraphNode[] = plan.subtasks.map((s) => ({ id: nodeIdOf.get(s.id)!, type: 'specialistAgent', data: specialistData(s, opts) }));
  const edges: GraphEdge[] = [];
  const connect = (source: string, target: string) => {
    let id = `e-${source}-${target}`;
    for (let n = 2; taken.has(id); n++) id = `e-${source}-${target}-${n}`;
    taken.add(id);
    edges.push({ id, source, target, data: { generatedBy: sup } });
  };
  for (const s of plan.subtasks) {
    if (s.depends_on.length === 0) connect(sup, nodeIdOf.get(s.id)!);
    for (const d of s.depends_on) connect(nodeIdOf.get(d)!, nodeIdOf.get(s.id)!);
  }
  const dependedOn = new Set(plan.subtasks.flatMap((s) => s.depends_on));
  const sinks = plan.subtasks.filter((s) => !dependedOn.has(s.id)).map((s) => nodeIdOf.get(s.id)!);

  let gateId: string | undefined;
  if (plan.approval) {
    const a = plan.approval;
    gateId = idFor(sup, 'approval', taken);
    nodes.push({
      id: gateId,
      type: 'humanApproval',
      data: {
        label: a.label, objective: a.objective, generatedBy: sup, subtaskId: 'approval',
        ...(a.noteRequired !== undefined ? { noteRequired: a.noteRequired } : {}),
        ...(a.timeoutHours !== undefined ? { timeoutHours: a.timeoutHours } : {}),
      },
    });
    for (const p of a.after ? a.after.map((x) => nodeIdOf.get(x)!) : sinks) connect(p, gateId);
  }
  if (plan.memory) {
    const m = plan.memory;
    const memId = idFor(sup, 'memory', taken);
    nodes.push({ id: memId, type: 'memoryWrite', data: { label: m.label, objective: m.objective, generatedBy: sup, subtaskId: 'memory', ...(m.key ? { key: m.key } : {}) } });
    const parents = m.after ? m.after.map((x) => (x === 'approval' ? gateId : nodeIdOf.get(x))) : gateId ? [gateId] : sinks;
    // 'approval' named without a planned gate: fall back to the sinks rather than a dangling edge.
    for (const p of parents.some((x) => !x) ? sinks : (parents as string[])) connect(p, memId);
  }
  layout(nodes, edges, sup, opts.origin ?? { x: 0, y: 0 });
  return { nodes, edges };
}

function specialistData(s: Subtask, opts: BuildOptions): NodeData {
  return {
    label: s.label,
    objective: s.objective,
    role: s.role ?? s.label,
    ...(s.systemInstructions ? { systemInstructions: s.systemInstructions } : {}),
    ...(opts.runtime ? { runtime: opts.runtime } : {}),
    ...(opts.agent ? { sandboxAgent: opts.agent } : {}),
    ...(opts.model ? { model: opts.model } : {}),
    generatedBy: opts.supervisorId,
    // The plan's own id, so a refinement can show the agent its current plan in the words it used.
    subtaskId: s.id,
  };
}

/** Rows by depth below the supervisor (depth 1 first), columns centred under it, in plan order. */
function layout(nodes: GraphNode[], edges: GraphEdge[], sup: string, origin: { x: number; y: number }): void {
  const parents = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const e of edges) parents.get(e.target)?.push(e.source);
  const depth = new Map<string, number>([[sup, 0]]);
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const ps = parents.get(id) ?? [];
    const d = Math.max(0, ...ps.map(depthOf)) + 1;
    depth.set(id, d);
    return d;
  };
  const rows = new Map<number, GraphNode[]>();
  for (const n of nodes) {
    const d = depthOf(n.id);
    rows.set(d, [...(rows.get(d) ?? []), n]);
  }
  for (const [d, row] of rows) {
    row.forEach((n, i) => {
      n.position = { x: Math.round(origin.x + (i - (row.length - 1) / 2) * COLUMN_GAP), y: origin.y + d * ROW_GAP };
    });
  }
}

export interface MergeOptions extends Omit<BuildOptions, 'origin' | 'takenIds'> {
  /** The supervisor node to add when `current` lacks it (a first plan from an empty builder). */
  supervisorNode: GraphNode;
}

/**
 * The workflow after (re-)planning: `current` with every node and edge tagged by this supervisor replaced by
 * the new plan's. Manual nodes and edges, and other supervisors' elements, are kept as they are. An edge
 * tagged by another supervisor that would dangle is dropped (its owner re-plans it); a manual edge that would
 * dangle is refused with PLAN_INVALID, because manual edges are never removed (rule 4).
 */
export function mergePlan(current: Graph | undefined, plan: Plan, opts: MergeOptions): Graph {
  const sup = opts.supervisorId;
  const base: Graph = current ? structuredClone(current) : { nodes: [], edges: [] };
  if (!base.nodes.some((n) => n.id === sup)) base.nodes.unshift(structuredClone(opts.supervisorNode));
  const supNode = base.nodes.find((n) => n.id === sup)!;
  if (tagOf(supNode) === sup) throw new WfError('PLAN_INVALID', `node '${sup}' is marked as generated by itself; clear its generatedBy first`);

  const keptNodes = base.nodes.filter((n) => tagOf(n) !== sup);
  const removed = new Set(base.nodes.filter((n) => tagOf(n) === sup).map((n) => n.id));
  const keptEdges = base.edges.filter((e) => tagOf(e) !== sup);
  const taken = new Set<string>([...keptNodes.map((n) => n.id), ...keptEdges.map((e) => e.id)]);
  // Removed nodes' ids are free again, so a subtask that keeps its id keeps its node id too.
  const generated = buildPlanGraph(plan, { ...opts, origin: supNode.position ?? { x: 0, y: 0 }, takenIds: taken });

  const nodes = [...keptNodes, ...generated.nodes];
  const present = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = [];
  for (const e of keptEdges) {
    const dangling = [e.source, e.target].filter((id) => !present.has(id));
    if (dangling.length === 0) edges.push(e);
    else if (tagOf(e) === undefined && dangling.some((id) => removed.has(id))) {
      const gone = dangling.find((id) => removed.has(id))!;
      throw new WfError('PLAN_INVALID', `the new plan drops '${gone}', which the manually added edge '${e.id}' connects to; keep that subtask in the plan or remove the edge first`);
    } else if (tagOf(e) === undefined) edges.push(e); // dangled before planning: not ours to judge
  }
  edges.push(...generated.edges);
  bridgeChildren({ nodes, edges }, sup, generated, taken);
  return { nodes, edges };
}

/**
 * A node the supervisor feeds by hand (a manual edge supervisor → child, e.g. a report writer) consumes the
 * delegated work, so it is wired after the plan's final nodes too, with tagged edges (the manual edge stays).
 * Conditionals are left alone (a second parent would make their tested source ambiguous), as is any child
 * that would close a cycle.
 */
function bridgeChildren(graph: Graph, sup: string, generated: Graph, taken: Set<string>): void {
  const genIds = new Set(generated.nodes.map((n) => n.id));
  const ends = generated.nodes.filter((n) => !generated.edges.some((e) => e.source === n.id)).map((n) => n.id);
  const children = graph.edges.filter((e) => e.source === sup && tagOf(e) !== sup && !genIds.has(e.target)).map((e) => e.target);
  for (const child of new Set(children)) {
    const node = graph.nodes.find((n) => n.id === child);
    if (!node || node.type === 'conditional') continue;
    const added: GraphEdge[] = ends.map((end) => {
      let id = `e-${end}-${child}`;
      for (let n = 2; taken.has(id); n++) id = `e-${end}-${child}-${n}`;
      return { id, source: end, target: child, data: { generatedBy: sup } };
    });
    if (findCycle(graph.nodes.map((n) => n.id), [...graph.edges, ...added])) continue;
    for (const e of added) taken.add(e.id);
    graph.edges.push(...added);
  }
}

/** This supervisor's current generated elements as a plan, for the refinement prompt. */
export function currentPlanOf(graph: Graph, supervisorId: string): Plan {
  const mine = graph.nodes.filter((n) => tagOf(n) === supervisorId);
  const subtaskIdOf = new Map(mine.map((n) => [n.id, typeof n.data.subtaskId === 'string' ? n.data.subtaskId : n.id]));
  const plan: Plan = { subtasks: [] };
  for (const n of mine) {
    const parents = graph.edges.filter((e) => e.target === n.id && subtaskIdOf.has(e.source)).map((e) => subtaskIdOf.get(e.source)!);
    if (n.type === 'humanApproval' || n.type === 'memoryWrite') {
      const extra = { label: n.data.label, objective: n.data.objective, after: parents };
      if (n.type === 'humanApproval') plan.approval = extra;
      else plan.memory = extra;
      continue;
    }
    plan.subtasks.push({
      id: subtaskIdOf.get(n.id)!, label: n.data.label, objective: n.data.objective, depends_on: parents,
      ...(n.data.role ? { role: n.data.role } : {}), ...(n.data.systemInstructions ? { systemInstructions: n.data.systemInstructions } : {}),
    });
  }
  return plan;
}

/** Subtask ids of this supervisor's nodes that manual edges touch: a refinement must keep them. */
export function pinnedSubtasks(graph: Graph, supervisorId: string): string[] {
  const mine = new Map(graph.nodes.filter((n) => tagOf(n) === supervisorId).map((n) => [n.id, typeof n.data.subtaskId === 'string' ? n.data.subtaskId : n.id]));
  const out = new Set<string>();
  for (const e of graph.edges) {
    if (tagOf(e) !== undefined) continue;
    for (const end of [e.source, e.target]) if (mine.has(end)) out.add(mine.get(end)!);
  }
  return [...out];
}

/** Whether a supervisor already has planned specialists in a graph (a smartSupervisor then does not re-plan). */
export function hasGeneratedSpecialists(graph: Graph, supervisorId: string): boolean {
  return graph.nodes.some((n) => tagOf(n) === supervisorId && n.type === 'specialistAgent');
}
