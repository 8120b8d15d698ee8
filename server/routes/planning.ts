/**
 * Planning (spec §4 "Planning", design §9): `POST /api/workflows/plan` → the whole workflow graph to save
 * (`{ nodes, edges }`), `POST /api/workflows/plan/tune-node` → `{ label, role, objective, systemInstructions }`.
 * Both also answer at the spec's unprefixed paths (design §8). The workspace must be approved (422 otherwise);
 * a reply without a usable plan is 422 PLAN_INVALID with a message saying what to fix.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AGENTS, type Graph, type NodeData } from '../../core/graph.js';
import { WfError } from '../../core/errors.js';
import { planWorkflow, tuneNode, type AgentChoice } from '../../workers/planner.js';
import { resolveApprovedWorkspace } from '../../workers/workspace.js';

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;
const runtime = { type: 'string', enum: ['direct', 'container'] } as const;
const agent = { type: 'string', enum: [...AGENTS] } as const;
const model = { type: 'string', maxLength: 200 } as const;
const workspace_path = text(4096);

// Structure only: the builder's in-progress graph may hold half-filled manual nodes, which planning keeps as
// they are; what planning adds is valid by construction. Ids and ends are needed to merge.
const currentPlan = {
  type: 'object',
  required: ['nodes', 'edges'],
  properties: {
    nodes: {
      type: 'array', maxItems: 2000,
      items: { type: 'object', required: ['id', 'type', 'data'], properties: { id: text(300), type: text(100), data: { type: 'object' } } },
    },
    edges: {
      type: 'array', maxItems: 10000,
      items: { type: 'object', required: ['id', 'source', 'target'], properties: { id: text(300), source: text(300), target: text(300) } },
    },
  },
} as const;

const planBody = {
  type: 'object',
  additionalProperties: false,
  required: ['objective', 'supervisor_node_id', 'runtime', 'agent', 'workspace_path'],
  properties: {
    objective: text(20_000),
    supervisor_node_id: text(300),
    runtime,
    agent,
    model,
    workspace_path,
    system_instructions: { type: 'string', maxLength: 20_000 },
    current_plan: currentPlan,
    feedback: { type: 'string', maxLength: 20_000 },
  },
} as const;

const tuneBody = {
  type: 'object',
  additionalProperties: false,
  required: ['node_data', 'instruction', 'runtime', 'agent', 'workspace_path'],
  properties: { node_data: { type: 'object' }, instruction: text(20_000), runtime, agent, model, workspace_path },
} as const;

interface PlanBody extends AgentChoice {
  objective: string;
  supervisor_node_id: string;
  workspace_path: string;
  system_instructions?: string;
  current_plan?: Graph;
  feedback?: string;
}

interface TuneBody extends AgentChoice {
  node_data: Partial<NodeData>;
  instruction: string;
  workspace_path: string;
}

/** Aborted when the client goes away before the answer, so its agent does not run on for nobody. */
function clientGone(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) ac.abort();
  });
  return ac.signal;
}

const blank = (s: string | undefined) => s === undefined || !s.trim();

export default async function planningRoutes(app: FastifyInstance) {
  const { db, config } = app.services;
  // Planning agents run outside the scheduler's pool, so they get their own cap: at most WFCTL_MAX_AGENTS at
  // once per server; beyond it a request is refused at once (429) rather than queued behind minutes-long agents.
  let active = 0;
  const limited = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= config.maxAgents) {
      throw new WfError('RATE_LIMITED', `${active} planning request${active === 1 ? ' is' : 's are'} already running (the limit is WFCTL_MAX_AGENTS = ${config.maxAgents}); try again when one has finished`);
    }
    active++;
    try {
      return await fn();
    } finally {
      active--;
    }
  };

  for (const prefix of ['/api', '']) {
    app.post<{ Body: PlanBody }>(`${prefix}/workflows/plan`, { schema: { body: planBody } }, async (req, reply) => {
      const b = req.body;
      if (blank(b.objective)) throw new WfError('VALIDATION_FAILED', 'objective must not be blank');
      if (!blank(b.feedback) && b.current_plan === undefined) {
        throw new WfError('VALIDATION_FAILED', 'feedback refines a plan: send the current plan as current_plan with it');
      }
      const workspacePath = resolveApprovedWorkspace(db, config, b.workspace_path);
      const graph = await limited(() => planWorkflow(db, config, {
        objective: b.objective.trim(),
        supervisorNodeId: b.supervisor_node_id,
        runtime: b.runtime,
        agent: b.agent,
        model: b.model || undefined,
        workspacePath,
        systemInstructions: b.system_instructions?.trim() || undefined,
        currentPlan: b.current_plan,
        feedback: blank(b.feedback) ? undefined : b.feedback,
        signal: clientGone(reply),
      }));
      return { nodes: graph.nodes, edges: graph.edges };
    });

    app.post<{ Body: TuneBody }>(`${prefix}/workflows/plan/tune-node`, { schema: { body: tuneBody } }, async (req, reply) => {
      const b = req.body;
      if (blank(b.instruction)) throw new WfError('VALIDATION_FAILED', 'instruction must not be blank');
      const workspacePath = resolveApprovedWorkspace(db, config, b.workspace_path);
      const t = await limited(() => tuneNode(db, config, {
        nodeData: b.node_data, instruction: b.instruction, runtime: b.runtime, agent: b.agent, model: b.model || undefined, workspacePath, signal: clientGone(reply),
      }));
      return { label: t.label, role: t.role, objective: t.objective, systemInstructions: t.systemInstructions };
    });
  }
}
