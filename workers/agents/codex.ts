/**
 * Codex CLI headless (agent-clis.md §2): `codex exec --json [-m m] <sandbox flags> [--skip-git-repo-check]
 * [-c provider settings] -- <prompt>`. Failure signals: `turn.failed`, a top-level `error` event, exit 1/2.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AgentAdapter, AgentRequest, AgentStreamParser } from './types.js';
import { findAgentBinary } from './bin.js';
import { asText, num, parseJsonLine, stderrTail } from './util.js';

/** Env var that carries a provider's key to Codex (named by `env_key`, never on the command line). */
export const CODEX_PROVIDER_KEY_ENV = 'WFCTL_PROVIDER_API_KEY';

/**
 * Read-only runs: `-s read-only`. Write runs: `-s workspace-write` when unconfined; inside bwrap or a container
 * Codex's own sandbox (bubblewrap / Landlock) cannot nest, so the outer confinement is the sandbox and Codex
 * runs with `--dangerously-bypass-approvals-and-sandbox`.
 */
export function codexPermissionArgs(req: AgentRequest): string[] {
  if (!req.write) return ['-s', 'read-only'];
  return req.runtime === 'container' || req.sandbox ? ['--dangerously-bypass-approvals-and-sandbox'] : ['-s', 'workspace-write'];
}

const toml = (s: string) => JSON.stringify(s);

export const codexAdapter: AgentAdapter = {
  name: 'codex',
  command(req, secrets = {}) {
    const args = ['exec', '--json'];
    if (req.model) args.push('-m', req.model);
    args.push(...codexPermissionArgs(req));
    if (!existsSync(path.join(req.cwd, '.git'))) args.push('--skip-git-repo-check');
    const env: Record<string, string> = {};
    const p = req.provider;
    if (p && (p.type === 'openai-compatible' || p.type === 'local') && p.baseUrl) {
      args.push('-c', 'model_provider="wfctl"', '-c', `model_providers.wfctl.name=${toml(p.name)}`, '-c', `model_providers.wfctl.base_url=${toml(p.baseUrl)}`, '-c', 'model_providers.wfctl.wire_api="responses"');
      if (secrets.apiKey) {
        args.push('-c', `model_providers.wfctl.env_key=${toml(CODEX_PROVIDER_KEY_ENV)}`);
        env[CODEX_PROVIDER_KEY_ENV] = secrets.apiKey;
      }
    }
    args.push('--', req.prompt);
    return { bin: req.runtime === 'container' ? 'codex' : findAgentBinary('codex') ?? 'codex', args, env };
  },
  parser(): AgentStreamParser {
    let sessionId: string | undefined;
    let last = '';
    let turnFailed: string | undefined;
    let streamError: string | undefined;
    const usage = { inputTokens: undefined as number | undefined, outputTokens: undefined as number | undefined, cachedTokens: undefined as number | undefined };
    const add = (k: keyof typeof usage, v: unknown) => {
      const n = num(v);
      if (n !== undefined) usage[k] = (usage[k] ?? 0) + n;
    };
    return {
      line(text) {
        const o = parseJsonLine(text);
        if (!o) return text.trim() ? [{ kind: 'system', content: text }] : [];
        const item = o.item ?? {};
        switch (o.type) {
          case 'thread.started':
            sessionId = o.thread_id;
            return [{ kind: 'system', content: `thread ${o.thread_id}` }];
          case 'turn.completed':
            add('inputTokens', o.usage?.input_tokens);
            add('outputTokens', o.usage?.output_tokens);
            add('cachedTokens', o.usage?.cached_input_tokens);
            return [];
          case 'turn.failed':
            turnFailed = asText(o.error?.message ?? o.error) || 'turn failed';
            return [{ kind: 'error', content: turnFailed }];
          case 'error':
            streamError = asText(o.message);
            return [{ kind: 'error', content: streamError }];
          case 'item.started':
            if (item.type === 'command_execution') return [{ kind: 'tool_use', content: JSON.stringify({ name: 'shell', input: { command: item.command } }) }];
            if (item.type === 'mcp_tool_call') return [{ kind: 'tool_use', content: JSON.stringify({ name: `${item.server}.${item.tool}`, input: item.arguments }) }];
            if (item.type === 'file_change') return [{ kind: 'tool_use', content: JSON.stringify({ name: 'apply_patch', input: { changes: item.changes } }) }];
            return [];
          case 'item.completed':
            switch (item.type) {
              case 'agent_message':
                last = asText(item.text);
                return [{ kind: 'text', content: last }];
              case 'reasoning':
                return [{ kind: 'reasoning', content: asText(item.text) }];
              case 'command_execution':
                return [{ kind: 'tool_result', content: `${item.status === 'completed' ? '' : `${item.status}: `}$ ${item.command}\n${asText(item.aggregated_output)}`.trimEnd() + (item.exit_code != null ? `\n(exit ${item.exit_code})` : '') }];
              case 'file_change':
                return [{ kind: 'tool_result', content: `${item.status}: ${(item.changes ?? []).map((c: any) => `${c.kind} ${c.path}`).join(', ')}` }];
              case 'mcp_tool_call':
                return [{ kind: 'tool_result', content: item.error ? `error: ${asText(item.error)}` : asText(item.result) }];
              case 'error':
                return [{ kind: 'error', content: asText(item.message) }];
              default:
                return [{ kind: 'system', content: JSON.stringify(item).slice(0, 4000) }];
            }
          default:
            return [];
        }
      },
      finish(exitCode, stderr) {
        if (turnFailed || streamError || exitCode !== 0) {
          return { ok: false, finalText: last, sessionId, usage, error: turnFailed ?? streamError ?? (stderrTail(stderr) || `codex exited with code ${exitCode}`) };
        }
        return { ok: true, finalText: last, sessionId, usage };
      },
    };
  },
};
