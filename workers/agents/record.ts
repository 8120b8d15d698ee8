/**
 * runAgent plus persistence: an agent_runs row (command, pid, exit code, duration, usage, cost), every message
 * into agent_messages and, when the agent belongs to a workflow run, `agent.started` / `agent.message` /
 * `agent.completed` rows in run_events. Messages are written in batches (every FLUSH_MS or FLUSH_COUNT
 * messages, whichever comes first) so a flood of output is a few short write transactions, not thousands.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../../core/time.js';
import type { DB } from '../../sql/db.js';
import { appendEvent } from '../../sql/events.js';
import { stmt } from '../../sql/stmt.js';
import { runAgent } from './run.js';
import type { AgentMessage, AgentRequest, AgentResult, RunAgentHooks } from './types.js';

export const FLUSH_MS = 100;
export const FLUSH_COUNT = 50;

export interface AgentRunContext {
  runId: string | null;
  stepRunId: string | null;
  nodeId: string | null;
}

export async function runRecordedAgent(db: DB, ctx: AgentRunContext, req: AgentRequest, hooks: RunAgentHooks = {}): Promise<AgentResult & { agentRunId: string }> {
  const agentRunId = randomUUID();
  const startedAt = nowIso();
  // The row is written by the first transaction that needs it (the spawn's, normally), not by one of its own:
  // one write transaction fewer per agent. A remote agent gets its row at once (its start is not reported).
  let inserted = false;
  const insertRow = () => {
    if (inserted) return;
    stmt(db, `INSERT INTO agent_runs (id, run_id, step_run_id, node_id, agent, model, runtime, command, cwd, status, started_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, '[]', ?, 'running', ?)`).run(agentRunId, ctx.runId, ctx.stepRunId, ctx.nodeId, req.agent, req.model ?? null, req.runtime, req.cwd, startedAt);
    inserted = true;
  };
  if (req.runner) insertRow();

  let started = false;
  const startedEvent = (pid: number | null) => {
    started = true;
    if (ctx.runId) appendEvent(db, ctx.runId, 'agent.started', { agent_run_id: agentRunId, node_id: ctx.nodeId, step_run_id: ctx.stepRunId, agent: req.agent, model: req.model ?? null, runtime: req.runtime, pid });
  };
  let pending: AgentMessage[] = [];
  let timer: NodeJS.Timeout | undefined;
  const insertMsg = stmt(db, 'INSERT INTO agent_messages (agent_run_id, run_id, node_id, seq, kind, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const writeBatch = db.transaction((batch: AgentMessage[]) => {
    insertRow();
    // A host-runner agent reports no start of its own.
    if (!started) startedEvent(null);
    for (const m of batch) {
      insertMsg.run(agentRunId, ctx.runId, ctx.nodeId, m.seq, m.kind, m.content, m.at);
      if (ctx.runId) appendEvent(db, ctx.runId, 'agent.message', { agent_run_id: agentRunId, node_id: ctx.nodeId, seq: m.seq, kind: m.kind, content: m.content, created_at: m.at });
    }
  });
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    writeBatch.immediate(batch);
  };

  let result: AgentResult;
  try {
    result = await runAgent(req, {
      signal: hooks.signal,
      onStart(info) {
        db.transaction(() => {
          insertRow();
          stmt(db, 'UPDATE agent_runs SET pid = ?, command = ? WHERE id = ?').run(info.pid, JSON.stringify(info.command), agentRunId);
          startedEvent(info.pid);
        }).immediate();
        hooks.onStart?.(info);
      },
      onMessage(m) {
        pending.push(m);
        if (pending.length >= FLUSH_COUNT) flush();
        else timer ??= setTimeout(flush, FLUSH_MS);
        hooks.onMessage?.(m);
      },
    });
  } catch (e) {
    // Refused before start (no sandbox, CLI missing): the attempt is still on record.
    clearTimeout(timer);
    db.transaction(() => {
      insertRow();
      stmt(db, "UPDATE agent_runs SET status = 'failed', error = ?, completed_at = ? WHERE id = ?").run((e as Error).message, nowIso(), agentRunId);
      if (ctx.runId) appendEvent(db, ctx.runId, 'agent.completed', { agent_run_id: agentRunId, node_id: ctx.nodeId, status: 'failed', error: (e as Error).message });
    }).immediate();
    throw e;
  }
  const r = result;
  db.transaction(() => {
    insertRow();
    if (!started) startedEvent(null);
    flush();
    stmt(db, `UPDATE agent_runs SET command = ?, pid = COALESCE(pid, ?), status = ?, exit_code = ?, session_id = ?, input_tokens = ?, output_tokens = ?,
              cached_tokens = ?, cost_usd = ?, duration_ms = ?, final_output = ?, error = ?, truncated = ?, completed_at = ? WHERE id = ?`).run(
      JSON.stringify(r.command), r.pid ?? null, r.status, r.exitCode, r.sessionId ?? null, r.usage.inputTokens ?? null, r.usage.outputTokens ?? null,
      r.usage.cachedTokens ?? null, r.usage.costUsd ?? null, r.durationMs, r.finalText, r.error ?? null, r.truncated ? 1 : 0, nowIso(), agentRunId);
    if (ctx.runId) {
      appendEvent(db, ctx.runId, 'agent.completed', {
        agent_run_id: agentRunId, node_id: ctx.nodeId, agent: req.agent, status: r.status, exit_code: r.exitCode, duration_ms: r.durationMs,
        usage: r.usage, error: r.error ?? null, truncated: r.truncated,
      });
    }
  }).immediate();
  return { ...r, agentRunId };
}
