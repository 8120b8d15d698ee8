/**
 * Run events (SSE, design.md §8) reduced to what the run page shows: agent messages per node, and whether an
 * event should trigger an immediate re-read of the run. Payload shapes are read defensively.
 */

export interface AgentMessage {
  key: string;
  nodeId: string;
  kind: string;
  content: string;
  at?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** One agent message from an `agent.message` (or similar) event payload, or undefined when it names no node. */
export function agentMessageFrom(payload: unknown, eventId?: string): AgentMessage | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  let p = payload as Record<string, unknown>;
  // The SSE data line wraps the row: { id, run_id, type, payload, created_at }.
  if (p.payload && typeof p.payload === 'object') {
    eventId ??= str(p.id);
    p = p.payload as Record<string, unknown>;
  }
  const inner = (p.message && typeof p.message === 'object' ? p.message : p) as Record<string, unknown>;
  const nodeId = str(p.node_id) ?? str(p.nodeId) ?? str(inner.node_id);
  if (!nodeId) return undefined;
  let content = inner.content ?? inner.text ?? p.content ?? p.text;
  if (content !== undefined && typeof content !== 'string') content = JSON.stringify(content);
  const kind = str(inner.kind) ?? str(p.kind) ?? 'text';
  const at = str(p.created_at) ?? str(inner.created_at);
  const key = eventId ?? str(p.id) ?? `${nodeId}:${str(inner.seq) ?? ''}:${String(content).slice(0, 40)}`;
  return { key, nodeId, kind, content: (content as string | undefined) ?? '', ...(at ? { at } : {}) };
}

/** Events after which the run page re-reads the run at once instead of waiting for the next 2-second poll. */
export function triggersRefresh(eventName: string): boolean {
  return ['run.status', 'node.status', 'approval.required', 'approval.resolved', 'run.report', 'run.artifacts', 'run.graph', 'log'].includes(eventName);
}

/** Adds messages to a per-node map without duplicates (the same event may arrive again after a reconnect). */
export function addMessages(map: ReadonlyMap<string, AgentMessage[]>, msgs: readonly AgentMessage[]): Map<string, AgentMessage[]> {
  const out = new Map(map);
  for (const m of msgs) {
    const list = out.get(m.nodeId) ?? [];
    if (list.some((x) => x.key === m.key)) continue;
    out.set(m.nodeId, [...list, m]);
  }
  return out;
}
