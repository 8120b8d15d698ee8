/**
 * Running an agent through a host runner (`wfctl runner`, design.md §9) when WFCTL_RUNNER_URL is set: for a
 * wfctl server inside a container whose agent CLIs live on the host. The request goes to
 * /api/runtimes/{direct-cli|container-sandbox}/run with the shared secret ($WFCTL_HOME/secrets/runner) as a
 * Bearer token; aborting closes the connection, which makes the runner kill the agent. The working copy must
 * have the same absolute path on both sides (mount the artifacts folder at the same path). Messages arrive
 * when the agent has finished, not while it runs.
 */
import { ERROR_CATALOGUE, WfError, type ErrorCode } from '../../core/errors.js';
import type { AgentRequest, AgentResult, RunAgentHooks } from './types.js';

export async function runAgentRemote(url: string, secret: string, req: AgentRequest, hooks: RunAgentHooks = {}): Promise<AgentResult> {
  const route = req.runtime === 'container' ? 'container-sandbox' : 'direct-cli';
  const started = Date.now();
  const command = [`${url.replace(/\/+$/, '')}/api/runtimes/${route}/run`, `<prompt: ${req.prompt.length} chars>`];
  let res: Response;
  try {
    res = await fetch(command[0], {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({
        agent: req.agent, ...(req.model ? { model: req.model } : {}), prompt: req.prompt, workspace_path: req.cwd,
        timeout_s: Math.max(1, Math.ceil(req.timeoutMs / 1000)), write: req.write, sandbox: req.sandbox, ...(req.image ? { image: req.image } : {}),
      }),
      signal: hooks.signal,
    });
  } catch (e) {
    if (hooks.signal?.aborted) return { status: 'cancelled', exitCode: null, finalText: '', usage: {}, error: 'cancelled', durationMs: Date.now() - started, command, truncated: false };
    throw new WfError('AGENT_FAILED', `host runner ${url} unreachable: ${(e as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, any>;
  if (!res.ok) {
    const code = (typeof body.code === 'string' && body.code in ERROR_CATALOGUE ? body.code : 'AGENT_FAILED') as ErrorCode;
    throw new WfError(code, `host runner: ${body.message ?? `HTTP ${res.status}`}`);
  }
  for (const m of Array.isArray(body.messages) ? body.messages : []) hooks.onMessage?.(m);
  return {
    status: body.status, exitCode: body.exit_code ?? null, finalText: body.output ?? '', sessionId: body.session_id ?? undefined, usage: body.usage ?? {},
    error: body.error ?? undefined, durationMs: Date.now() - started, command: Array.isArray(body.command) ? body.command : command, truncated: !!body.truncated,
  };
}
