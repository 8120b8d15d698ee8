/**
 * Supervisor planning, the side that runs agents (spec §4 "Planning" rule 2): the supervisor's agent runs
 * read-only on the workspace, in-process (a throwaway working copy of the approved workspace, confined when
 * the host has a sandbox) or through the host runner when the server delegates agents to one
 * (config.runnerUrl). Its reply becomes a plan (core/plan.ts) merged into the workflow (core/plan-graph.ts).
 * Also the smartSupervisor's run-time planning, which grows a run's graph snapshot.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../core/config.js';
import { WfError } from '../core/errors.js';
import { assertValidGraph, type AgentName, type Graph, type GraphNode, type NodeData } from '../core/graph.js';
import { parsePlanReply, parseTuneReply, planPrompt, tunePrompt, type Tuned } from '../core/plan.js';
import { currentPlanOf, hasGeneratedSpecialists, mergePlan, pinnedSubtasks } from '../core/plan-graph.js';
import type { DB } from '../sql/db.js';
import { appendLog } from '../sql/logs.js';
import { growRunGraph } from '../sql/run-graph.js';
import type { RunRow } from '../sql/runs.js';
import { readSecret } from '../sql/secrets.js';
import { resolveProvider } from './agents/providers.js';
import { runRecordedAgent } from './agents/record.js';
import type { AgentResult } from './agents/types.js';
import { agent as agentExecutor } from './executors/agent.js';
import type { NodeExecutor } from './executors/types.js';
import { deadline } from './deadline.js';
import { detectSandbox } from './sandbox/detect.js';
import { prepareWorkingCopy } from './workspace.js';

/** A planning request waits on an agent; ten minutes bounds it well below a node's hour. */
export const PLAN_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_PLANNER_AGENT: AgentName = 'claude';

export interface AgentChoice {
  runtime: 'direct' | 'container';
  agent: AgentName;
  model?: string;
  /** Model provider id or name; default the first configured provider that fits the agent (as agent nodes). */
  provider?: string | null;
}

export interface AskRequest extends AgentChoice {
  prompt: string;
  /** An approved workspace, already resolved (resolveApprovedWorkspace). */
  workspacePath: string;
  signal?: AbortSignal;
}

/** The agent's final answer, or AGENT_FAILED naming the agent and what it said. */
function answerOf(agent: string, r: Pick<AgentResult, 'status' | 'exitCode' | 'error' | 'finalText'>, timeoutMs: number): string {
  if (r.status === 'completed') return r.finalText;
  if (r.status === 'timed_out') throw new WfError('AGENT_FAILED', `the ${agent} planner did not answer within ${Math.round(timeoutMs / 1000)} s`);
  if (r.status === 'cancelled') throw new WfError('AGENT_FAILED', `the ${agent} planner was stopped before it answered`);
  throw new WfError('AGENT_FAILED', `the ${agent} planner failed${r.exitCode !== null ? ` (exit ${r.exitCode})` : ''}: ${r.error || 'no error message'}`);
}

/** Runs the supervisor's agent read-only on the workspace and returns its final answer. */
export async function askSupervisorAgent(db: DB, config: Config, req: AskRequest): Promise<string> {
  const timeoutMs = Math.min(PLAN_TIMEOUT_MS, config.nodeTimeoutMs);
  if (config.runnerUrl) return viaRunner(config, req, timeoutMs);
  // A throwaway copy: whatever the agent does, the user's checkout is untouched (like a run's copy).
  const copyId = `plan-${randomUUID()}`;
  const copy = await prepareWorkingCopy(config, copyId, req.workspacePath);
  try {
    const r = await runRecordedAgent(db, { runId: null, stepRunId: null, nodeId: null }, {
      agent: req.agent, model: req.model, prompt: req.prompt, cwd: copy, write: false, runtime: req.runtime,
      // Read-only in a throwaway copy: confined where the host can, not refused where it cannot (docs/decisions.md).
      sandbox: req.runtime === 'direct' && detectSandbox() === 'bwrap',
      timeoutMs,
      provider: resolveProvider(db, config, req.agent, req.provider ?? null),
    }, { signal: req.signal });
    return answerOf(req.agent, r, timeoutMs);
  } finally {
    const dir = path.dirname(copy);
    if (path.basename(dir) === copyId) await rm(dir, { recursive: true, force: true });
  }
}

/** The host runner (design §9): `POST {runnerUrl}/api/runtimes/{direct-cli|container-sandbox}/run`. */
async function viaRunner(config: Config, req: AskRequest, timeoutMs: number): Promise<string> {
  const route = req.runtime === 'container' ? 'container-sandbox' : 'direct-cli';
  const url = `${config.runnerUrl.replace(/\/+$/, '')}/api/runtimes/${route}/run`;
  const secret = readSecret(config.home, 'runner')?.trim();
  const limit = deadline(timeoutMs + 30_000, req.signal);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      // write: false: planning only reads; the runner confines the agent to the workspace read-only.
      body: JSON.stringify({ agent: req.agent, ...(req.model ? { model: req.model } : {}), prompt: req.prompt, workspace_path: req.workspacePath, timeout_s: Math.ceil(timeoutMs / 1000), write: false }),
      signal: limit.signal,
    });
  } catch (e) {
    limit.clear();
    throw new WfError('AGENT_FAILED', `the host runner at ${config.runnerUrl} could not be reached: ${(e as Error).message}`);
  }
  const body = (await res.json().catch(() => ({})).finally(() => limit.clear())) as { exit_code?: number | null; output?: string; status?: string; error?: string; message?: string };
  if (!res.ok) throw new WfError('AGENT_FAILED', `the host runner refused the planner (HTTP ${res.status}): ${body.message ?? body.error ?? 'no message'}`);
  const status = (body.status ?? (body.exit_code === 0 ? 'completed' : 'failed')) as AgentResult['status'];
  return answerOf(req.agent, { status, exitCode: body.exit_code ?? null, error: body.error, finalText: body.output ?? '' }, timeoutMs);
}

export interface PlanInput extends AgentChoice {
  objective: string;
  supervisorNodeId: string;
  workspacePath: string;
  systemInstructions?: string;
  /** The workflow as the builder holds it; its nodes and edges not generated by this supervisor are kept. */
  currentPlan?: Graph;
  /** With currentPlan: refine the current plan instead of making a new one (rule 1). */
  feedback?: string;
  signal?: AbortSignal;
}

/** The supervisor node added when the builder sends no current plan (or one without that node). */
export function defaultSupervisorNode(input: Omit<PlanInput, 'workspacePath' | 'signal'>): GraphNode {
  const data: NodeData = { label: 'Supervisor', role: 'supervisor', objective: input.objective, runtime: input.runtime, sandboxAgent: input.agent };
  if (input.model) data.model = input.model;
  if (input.systemInstructions) data.systemInstructions = input.systemInstructions;
  return { id: input.supervisorNodeId, type: 'supervisorAgent', position: { x: 0, y: 0 }, data };
}

/**
 * Plans (or, with currentPlan and feedback, refines) and returns the whole workflow graph to save: the current
 * plan with this supervisor's generated elements replaced, or the supervisor node plus the new subgraph.
 */
export async function planWorkflow(db: DB, config: Config, input: PlanInput): Promise<Graph> {
  const sup = input.supervisorNodeId;
  const refine = input.currentPlan !== undefined && input.feedback !== undefined;
  const prompt = planPrompt({
    objective: input.objective,
    systemInstructions: input.systemInstructions,
    ...(refine ? { current: currentPlanOf(input.currentPlan!, sup), feedback: input.feedback, pinned: pinnedSubtasks(input.currentPlan!, sup) } : {}),
  });
  const reply = await askSupervisorAgent(db, config, { ...input, prompt });
  const plan = parsePlanReply(reply);
  return mergePlan(input.currentPlan, plan, { supervisorId: sup, supervisorNode: defaultSupervisorNode(input), runtime: input.runtime, agent: input.agent, model: input.model });
}

export interface TuneInput extends AgentChoice {
  nodeData: Partial<NodeData>;
  instruction: string;
  workspacePath: string;
  signal?: AbortSignal;
}

/** Rewrites only label, role, objective and systemInstructions of one node (rule 7). */
export async function tuneNode(db: DB, config: Config, input: TuneInput): Promise<Tuned> {
  const reply = await askSupervisorAgent(db, config, { ...input, prompt: tunePrompt(input.nodeData, input.instruction) });
  return parseTuneReply(reply, input.nodeData);
}

/** What run-time planning needs of the executing node (a subset of the engine's NodeContext). */
export interface RunPlanContext {
  db: DB;
  config: Config;
  run: RunRow;
  node: GraphNode;
  step: { id: string };
  signal: AbortSignal;
}

/**
 * A smartSupervisor without generated specialists, executed in a run: its agent plans in the run's working copy
 * (recorded under the run: agent.* events), and the run's graph snapshot grows by the planned subgraph
 * (`run.graph` event) before the scheduler computes the next level. Returns the supervisor's output: the plan
 * as text, which later steps see as its summary. A reply without a valid plan fails the node (PLAN_INVALID).
 */
export async function planAtRunTime(ctx: RunPlanContext): Promise<string> {
  const { db, config, run, node } = ctx;
  const d = node.data;
  const agent = d.sandboxAgent ?? DEFAULT_PLANNER_AGENT;
  const r = await runRecordedAgent(db, { runId: run.id, stepRunId: ctx.step.id, nodeId: node.id }, {
    agent, model: d.model || undefined, prompt: planPrompt({ objective: d.objective, systemInstructions: d.systemInstructions }),
    cwd: run.workdir ?? run.workspace_path, write: false, runtime: d.runtime ?? 'direct', sandbox: run.sandbox === 1, timeoutMs: config.nodeTimeoutMs,
    provider: resolveProvider(db, config, agent, typeof d.provider === 'string' ? d.provider : null),
    runner: config.runnerUrl ? { url: config.runnerUrl, home: config.home } : undefined,
  }, { signal: ctx.signal });
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('cancelled');
  const plan = parsePlanReply(answerOf(agent, r, config.nodeTimeoutMs));
  growRunGraph(db, run.id, node.id, (g) => {
    const grown = mergePlan(g, plan, { supervisorId: node.id, supervisorNode: node, runtime: d.runtime, agent: d.sandboxAgent, model: d.model });
    assertValidGraph(grown);
    return grown;
  });
  const lines = plan.subtasks.map((s) => `- ${s.label} (${s.id})${s.depends_on.length ? ` after ${s.depends_on.join(', ')}` : ''}: ${s.objective}`);
  db.transaction(() => appendLog(db, run.id, 'info', `node '${d.label}' (${node.id}) planned ${plan.subtasks.length} subtask${plan.subtasks.length === 1 ? '' : 's'}: ${plan.subtasks.map((s) => s.id).join(', ')}`, node.id)).immediate();
  return `Planned ${plan.subtasks.length} subtask${plan.subtasks.length === 1 ? '' : 's'}${plan.approval ? ', a review gate' : ''}${plan.memory ? ', a memory write' : ''}:\n${lines.join('\n')}`;
}

/**
 * The executor of smartSupervisor nodes: plans at run time when the supervisor has no generated specialists
 * yet, otherwise runs as a plain agent node (its plan is already in the graph).
 */
export const smartSupervisor: NodeExecutor = (ctx) => (hasGeneratedSpecialists(ctx.graph, ctx.node.id) ? agentExecutor(ctx) : planAtRunTime(ctx));
