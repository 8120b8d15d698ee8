/** webhook: POSTs {run_id, node_id, status, outputs} as JSON; a non-2xx answer or a time-out fails the node. */
import { deadline } from '../deadline.js';
import { parentOutputs, type NodeExecutor } from './types.js';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;

export const webhook: NodeExecutor = async (ctx) => {
  const d = ctx.node.data;
  const parents = parentOutputs(ctx);
  const body = {
    run_id: ctx.run.id,
    workflow_id: ctx.run.workflow_id,
    workflow_name: ctx.run.workflow_name,
    node_id: ctx.node.id,
    status: ctx.run.status,
    outputs: Object.fromEntries(parents.map((p) => [p.id, p.output])),
  };
  const timeoutMs = d.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  let res: Response;
  let text: string;
  // The time-out covers the whole exchange: headers and body.
  const limit = deadline(timeoutMs, ctx.signal);
  try {
    res = await fetch(String(d.url), {
      method: String(d.method ?? 'POST').toUpperCase(),
      headers: { 'content-type': 'application/json', 'user-agent': 'wfctl-webhook', ...(d.headers ?? {}) },
      body: JSON.stringify(body),
      signal: limit.signal,
    });
    text = (await res.text()).slice(0, 2000);
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    const err = e as Error;
    const why = limit.signal.aborted ? `no answer within ${timeoutMs} ms` : (err.cause as Error | undefined)?.message ?? err.message;
    throw new Error(`webhook ${d.url} failed: ${why}`);
  } finally {
    limit.clear();
  }
  if (!res.ok) throw new Error(`webhook ${d.url} answered HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`);
  return `webhook ${d.url} answered HTTP ${res.status}${text ? `\n${text}` : ''}`;
};
