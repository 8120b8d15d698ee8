/**
 * The builder's calls to the planning routes (spec §4 Planning): Plan / Refine for a supervisor and Tune for
 * any agent node. The supervisor's (or node's) runtime, agent and model choose the planning agent.
 */
import type { Graph, GraphNode, NodeData } from '../../../core/graph.js';
import { depthLayout } from '../lib/graph-map.js';
import { isFullGraph, mergePlan } from '../lib/nodes.js';
import { api } from '../state.js';

/** runtime / agent / model / workspace_path of a planning call. */
function agentChoice(node: GraphNode, workspace: string): Record<string, unknown> {
  return {
    runtime: node.data.runtime ?? 'direct',
    agent: node.data.sandboxAgent ?? 'claude',
    workspace_path: workspace,
    ...(node.data.model ? { model: node.data.model } : {}),
  };
}

/**
 * Plans (or, with feedback, refines) the supervisor's specialists. The server merges the plan into the graph it
 * is sent (current_plan: the whole builder graph), replacing only this supervisor's generated elements; an
 * answer that is only a subgraph is merged here by the same rule. Unpositioned nodes are laid out by depth
 * relative to the supervisor.
 */
export async function planSupervisor(graph: Graph, sup: GraphNode, workspace: string, feedback?: string): Promise<Graph> {
  const body: Record<string, unknown> = { ...agentChoice(sup, workspace), objective: sup.data.objective, supervisor_node_id: sup.id, current_plan: graph };
  if (sup.data.systemInstructions) body.system_instructions = sup.data.systemInstructions;
  if (feedback) body.feedback = feedback;
  const plan = await api.post<{ nodes: unknown; edges: unknown }>('/api/workflows/plan', body);
  const merged = isFullGraph(graph, sup.id, plan) ? (plan as Graph) : mergePlan(graph, sup.id, plan);
  const auto = depthLayout(merged);
  const origin = sup.position ?? { x: 0, y: 0 };
  const supAuto = auto.get(sup.id) ?? { x: 0, y: 0 };
  return {
    ...merged,
    nodes: merged.nodes.map((n) => (n.position ? n : { ...n, position: { x: origin.x + (auto.get(n.id)!.x - supAuto.x), y: origin.y + auto.get(n.id)!.y } })),
  };
}

/** Tune-node: the agent's rewrite of label, role, objective and systemInstructions (nothing else, rule 7). */
export async function tuneNode(node: GraphNode, workspace: string, instruction: string): Promise<Partial<NodeData>> {
  const r = await api.post<Partial<Record<'label' | 'role' | 'objective' | 'systemInstructions', unknown>>>('/api/workflows/plan/tune-node', {
    ...agentChoice(node, workspace),
    node_data: node.data,
    instruction,
  });
  const patch: Partial<NodeData> = {};
  for (const k of ['label', 'role', 'objective', 'systemInstructions'] as const) if (typeof r[k] === 'string') patch[k] = r[k];
  return patch;
}
