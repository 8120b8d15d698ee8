/**
 * Gemini CLI headless (agent-clis.md §3): `gemini -p <prompt> -o stream-json --skip-trust --approval-mode <m>
 * [-m model]`. Failure signals: a `result` with status "error", a JSON error object on stderr (fatal errors
 * before the stream starts, e.g. authentication), and the exit codes of §3.4.
 */
import type { AgentAdapter, AgentMessage, AgentRequest, AgentStreamParser } from './types.js';
import { findAgentBinary } from './bin.js';
import { asText, num, parseJsonLine, stderrTail } from './util.js';

/** Read-only: plan. Write: yolo inside bwrap / a container (shell commands too), auto_edit (edits only) unconfined. */
export function geminiApprovalMode(req: AgentRequest): string {
  if (!req.write) return 'plan';
  return req.runtime === 'container' || req.sandbox ? 'yolo' : 'auto_edit';
}

const EXIT_MEANING: Record<number, string> = { 41: 'authentication failed', 42: 'invalid input', 44: 'sandbox error', 52: 'configuration error', 53: 'turn limit exceeded', 54: 'tool execution failed', 55: 'untrusted workspace', 130: 'cancelled' };
/** Text deltas are coalesced into one message up to this size, so a reply is not stored as hundreds of rows. */
const DELTA_FLUSH_CHARS = 4096;
/** The final answer keeps at most this much text. */
const FINAL_CAP_CHARS = 4 * 1024 * 1024;

/** The error object Gemini writes to stderr on a fatal error: `{ session_id, error: { type, message, code } }`. */
function stderrError(stderr: string): { message: string; code?: number; session_id?: string } | undefined {
  const i = stderr.indexOf('{');
  if (i < 0) return undefined;
  for (const candidate of [stderr.slice(i), ...stderr.slice(i).split('\n')]) {
    try {
      const o = JSON.parse(candidate.trim());
      if (o?.error?.message) return { message: String(o.error.message), code: num(o.error.code), session_id: o.session_id };
    } catch {
      /* not this one */
    }
  }
  return undefined;
}

export const geminiAdapter: AgentAdapter = {
  name: 'gemini',
  command(req) {
    const args = ['-p', req.prompt, '-o', 'stream-json', '--skip-trust', '--approval-mode', geminiApprovalMode(req)];
    if (req.model) args.push('-m', req.model);
    return { bin: req.runtime === 'container' ? 'gemini' : findAgentBinary('gemini') ?? 'gemini', args, env: {} };
  },
  parser(): AgentStreamParser {
    let sessionId: string | undefined;
    let pending = '';
    let turnText = '';
    let result: Record<string, any> | undefined;
    const flush = (): Array<Omit<AgentMessage, 'seq' | 'at'>> => {
      if (!pending) return [];
      const m: Array<Omit<AgentMessage, 'seq' | 'at'>> = [{ kind: 'text', content: pending }];
      pending = '';
      return m;
    };
    return {
      line(text) {
        const o = parseJsonLine(text);
        if (!o) return text.trim() ? [...flush(), { kind: 'system', content: text }] : [];
        if (o.type === 'message' && o.role === 'assistant') {
          const c = asText(o.content);
          pending += c;
          if (turnText.length < FINAL_CAP_CHARS) turnText += c.slice(0, FINAL_CAP_CHARS - turnText.length);
          return pending.length >= DELTA_FLUSH_CHARS || pending.endsWith('\n') ? flush() : [];
        }
        const out = flush();
        switch (o.type) {
          case 'init':
            sessionId = o.session_id;
            out.push({ kind: 'system', content: `session ${o.session_id} · model ${o.model ?? '?'}` });
            break;
          case 'tool_use':
            turnText = '';
            out.push({ kind: 'tool_use', content: JSON.stringify({ name: o.tool_name, input: o.parameters }) });
            break;
          case 'tool_result':
            turnText = '';
            out.push({ kind: 'tool_result', content: o.status === 'error' ? `error: ${asText(o.error?.message ?? o.error)}` : asText(o.output) });
            break;
          case 'error':
            out.push({ kind: 'error', content: `${o.severity ?? 'error'}: ${asText(o.message)}` });
            break;
          case 'result':
            result = o;
            out.push({ kind: 'result', content: o.status === 'error' ? asText(o.error?.message ?? 'error') : turnText });
            break;
        }
        return out;
      },
      end: () => flush(),
      finish(exitCode, stderr) {
        const s = result?.stats ?? {};
        const usage = { inputTokens: num(s.input_tokens), outputTokens: num(s.output_tokens), cachedTokens: num(s.cached) };
        if (result?.status === 'success' && exitCode === 0) return { ok: true, finalText: turnText, sessionId, usage };
        const fromStderr = stderrError(stderr);
        const code = exitCode ?? fromStderr?.code;
        const meaning = code !== undefined && code !== null && EXIT_MEANING[code] ? ` (exit ${code}: ${EXIT_MEANING[code]})` : '';
        const why = (result?.status === 'error' ? asText(result.error?.message) : '') || fromStderr?.message || stderrTail(stderr) || `gemini exited with code ${exitCode}`;
        return { ok: false, finalText: turnText, sessionId: sessionId ?? fromStderr?.session_id, usage, error: `${why}${meaning}` };
      },
    };
  },
};
