/**
 * Claude Code headless (agent-clis.md §1): `claude -p <prompt> --output-format stream-json --verbose
 * --permission-mode <mode> [--model m]`. The final `result` line is the authority: `is_error` fails a run even
 * when the exit code is 0.
 */
import type { AgentAdapter, AgentRequest, AgentStreamParser } from './types.js';
import { findAgentBinary } from './bin.js';
import { asText, num, parseJsonLine, stderrTail } from './util.js';

/**
 * Read-only runs plan only. Write runs in a confined copy (bwrap / container) bypass permission prompts, so the
 * agent can also run commands (tests, builds) — IS_SANDBOX=1 lets that work as root; unconfined write runs only
 * auto-accept file edits.
 */
export function claudePermissionMode(req: AgentRequest): string {
  if (!req.write) return 'plan';
  return req.runtime === 'container' || req.sandbox ? 'bypassPermissions' : 'acceptEdits';
}

export const claudeAdapter: AgentAdapter = {
  name: 'claude',
  command(req, secrets = {}) {
    const mode = claudePermissionMode(req);
    // The prompt sits right after -p so no variadic flag can swallow it (agent-clis.md §1.1 pitfall).
    const args = ['-p', req.prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', mode];
    if (req.model) args.push('--model', req.model);
    const env: Record<string, string> = {};
    if (mode === 'bypassPermissions') env.IS_SANDBOX = '1';
    if (req.provider?.type === 'anthropic-compatible' && req.provider.baseUrl) {
      // Claude appends /v1/messages itself; an API key set in the parent environment would win over the token.
      env.ANTHROPIC_BASE_URL = req.provider.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
      env.ANTHROPIC_AUTH_TOKEN = secrets.apiKey ?? 'wfctl';
      env.ANTHROPIC_API_KEY = '';
    }
    return { bin: req.runtime === 'container' ? 'claude' : findAgentBinary('claude') ?? 'claude', args, env };
  },
  parser(): AgentStreamParser {
    let sessionId: string | undefined;
    let result: Record<string, any> | undefined;
    let lastText = '';
    return {
      line(text) {
        const o = parseJsonLine(text);
        if (!o) return text.trim() ? [{ kind: 'system', content: text }] : [];
        if (typeof o.session_id === 'string') sessionId = o.session_id;
        switch (o.type) {
          case 'system':
            if (o.subtype === 'init') return [{ kind: 'system', content: `session ${o.session_id ?? '?'} · model ${o.model ?? '?'} · permission mode ${o.permissionMode ?? '?'}` }];
            return [{ kind: 'system', content: `${o.subtype ?? 'system'}: ${asText(o.message ?? o.data ?? '')}`.slice(0, 4000) }];
          case 'assistant': {
            const out: ReturnType<AgentStreamParser['line']> = [];
            for (const b of o.message?.content ?? []) {
              if (b.type === 'text') {
                lastText = b.text ?? '';
                out.push({ kind: 'text', content: lastText });
              } else if (b.type === 'thinking') out.push({ kind: 'reasoning', content: asText(b.thinking ?? b.text) });
              else if (b.type === 'tool_use') out.push({ kind: 'tool_use', content: JSON.stringify({ name: b.name, input: b.input }) });
            }
            if (o.error) out.push({ kind: 'error', content: asText(o.error) });
            return out;
          }
          case 'user':
            return (o.message?.content ?? [])
              .filter((b: any) => b.type === 'tool_result')
              .map((b: any) => ({ kind: 'tool_result' as const, content: (b.is_error ? 'error: ' : '') + asText(b.content) }));
          case 'result':
            result = o;
            return [{ kind: 'result', content: o.is_error ? asText(o.errors ?? o.result ?? o.subtype) : asText(o.result ?? '') }];
          default:
            return [];
        }
      },
      finish(exitCode, stderr) {
        const u = result?.usage ?? {};
        const usage = {
          inputTokens: num(u.input_tokens) !== undefined ? (u.input_tokens as number) + (num(u.cache_creation_input_tokens) ?? 0) : undefined,
          outputTokens: num(u.output_tokens),
          cachedTokens: num(u.cache_read_input_tokens),
          costUsd: num(result?.total_cost_usd),
        };
        if (!result) {
          return { ok: false, finalText: lastText, sessionId, usage, error: stderrTail(stderr) || `claude exited with code ${exitCode} without a result` };
        }
        if (result.is_error) {
          const why = Array.isArray(result.errors) && result.errors.length ? result.errors.join('; ') : asText(result.result) || String(result.subtype);
          const status = result.api_error_status ? ` (API status ${result.api_error_status})` : '';
          return { ok: false, finalText: '', sessionId, usage, error: `${why}${status}` };
        }
        if (exitCode !== 0) return { ok: false, finalText: asText(result.result), sessionId, usage, error: stderrTail(stderr) || `claude exited with code ${exitCode}` };
        return { ok: true, finalText: asText(result.result), sessionId, usage };
      },
    };
  },
};
