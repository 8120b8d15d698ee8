/**
 * Agent nodes (specialistAgent, supervisorAgent, smartSupervisor, reportWriter): assemble the prompt
 * (design §6), run the CLI through runRecordedAgent in the run's working copy, and return its final answer.
 * Cancellation arrives as the AbortSignal, which makes runAgent kill the agent's whole process group.
 */
import type { AgentName } from '../../core/graph.js';
import { visibleContext } from '../../core/context.js';
import { assemblePrompt } from '../../core/prompt.js';
import type { DB } from '../../sql/db.js';
import { runContext } from '../../sql/runs.js';
import { stmt } from '../../sql/stmt.js';
import { resolveProvider } from '../agents/providers.js';
import { runRecordedAgent } from '../agents/record.js';
import type { AgentRequest } from '../agents/types.js';
import { NodeCancelled, type NodeExecutor, type NodeContext } from './types.js';

export const DEFAULT_AGENT: AgentName = 'claude';

/** The node's skills in its list order; an id may also be a built-in's key. Unknown ids are left out. */
export function skillsOf(db: DB, ids: string[] | undefined): Array<{ name: string; prompt_template: string }> {
  const out: Array<{ name: string; prompt_template: string }> = [];
  for (const id of ids ?? []) {
    const s = stmt(db, 'SELECT name, prompt_template FROM skills WHERE id = ? OR builtin_key = ? LIMIT 1').get(id, id) as { name: string; prompt_template: string } | undefined;
    if (s) out.push(s);
  }
  return out;
}

export function buildPrompt(ctx: Pick<NodeContext, 'db' | 'run' | 'node'>): string {
  return assemblePrompt(ctx.node, skillsOf(ctx.db, ctx.node.data.skills), visibleContext(runContext(ctx.run), ctx.node));
}

export function agentRequest(ctx: Pick<NodeContext, 'db' | 'run' | 'node' | 'config'>): AgentRequest {
  const d = ctx.node.data;
  return {
    agent: d.sandboxAgent ?? DEFAULT_AGENT,
    model: d.model || undefined,
    prompt: buildPrompt(ctx),
    cwd: ctx.run.workdir ?? ctx.run.workspace_path,
    write: ctx.run.write === 1,
    runtime: d.runtime ?? 'direct',
    image: d.image || undefined,
    runner: ctx.config.runnerUrl ? { url: ctx.config.runnerUrl, home: ctx.config.home } : undefined,
    sandbox: ctx.run.sandbox === 1,
    timeoutMs: ctx.config.nodeTimeoutMs,
    provider: resolveProvider(ctx.db, ctx.config, d.sandboxAgent ?? DEFAULT_AGENT, typeof d.provider === 'string' ? d.provider : null),
  };
}

export const agent: NodeExecutor = async (ctx) => {
  const req = agentRequest(ctx);
  const res = await runRecordedAgent(ctx.db, { runId: ctx.run.id, stepRunId: ctx.step.id, nodeId: ctx.node.id }, req, { signal: ctx.signal });
  if (res.status === 'completed') return res.finalText;
  if (res.status === 'cancelled' || ctx.signal.aborted) throw new NodeCancelled(`agent ${req.agent} was stopped: the run was cancelled`);
  if (res.status === 'timed_out') throw new Error(`agent ${req.agent} timed out after ${req.timeoutMs} ms`);
  throw new Error(`agent ${req.agent} failed${res.exitCode !== null ? ` (exit ${res.exitCode})` : ''}: ${res.error ?? 'no error message'}`);
};
