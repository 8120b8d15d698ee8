/**
 * Runs one agent CLI to completion: the adapter's command line, confined (bwrap / container) unless waived,
 * spawned in its own process group with stdin from /dev/null, stdout parsed line by line into messages,
 * stderr kept bounded, output capped, and the whole group killed on abort or timeout (TERM, then KILL).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { WfError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { readSecret } from '../../sql/secrets.js';
import { confine } from '../sandbox/confine.js';
import { getAdapter } from './adapters.js';
import { runAgentRemote } from './remote.js';
import type { AgentMessage, AgentRequest, AgentResult, RunAgentHooks } from './types.js';

/** Message content kept per run (counted in characters); beyond it messages are dropped and one note says so. */
export const OUTPUT_CAP_BYTES = 4 * 1024 * 1024;
/** One stdout line longer than this is dropped (a runaway line cannot grow the buffer without end). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** One message's content is cut at this size. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Stderr kept: its tail (errors come last; Gemini's JSON error is there). */
export const STDERR_TAIL_BYTES = 64 * 1024;
/** Time between TERM and KILL of the process group. */
export const KILL_GRACE_MS = 2000;
/** After the agent exits, how long stdout may stay open (a stray grandchild holding it) before we stop reading. */
const CLOSE_WAIT_MS = 2000;

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
    /* already gone */
  }
}

/** argv with the prompt replaced by `<prompt: N chars>`, as stored in agent_runs.command. */
export function redactCommand(argv: string[], prompt: string): string[] {
  return argv.map((a) => (a === prompt ? `<prompt: ${prompt.length} chars>` : a));
}

export async function runAgent(req: AgentRequest, hooks: RunAgentHooks = {}): Promise<AgentResult> {
  // A containerised server hands agents to the host runner (the caller passes its config.runnerUrl).
  if (req.runner) {
    const secret = readSecret(req.runner.home, 'runner')?.trim();
    if (!secret) throw new WfError('CONFIG_INVALID', `WFCTL_RUNNER_URL is set but ${req.runner.home}/secrets/runner is missing; copy the runner's secret file there`);
    return runAgentRemote(req.runner.url, secret, req, hooks);
  }
  const adapter = getAdapter(req.agent);
  // The provider key is read now, at spawn time, and only ever placed in the child's environment.
  const apiKey = req.provider ? readSecret(req.provider.home, `provider-${req.provider.id}`)?.trim() : undefined;
  const cmd = adapter.command(req, { apiKey });
  if (req.runtime === 'direct' && !cmd.bin.includes('/')) {
    const up = req.agent.toUpperCase();
    throw new WfError('AGENT_NOT_FOUND', `${req.agent} CLI not found on PATH; install it or set WFCTL_${up}_BIN`);
  }
  const extraEnv = { ...cmd.env, ...(req.env ?? {}) };
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  const wrapped = confine(req, cmd, env, Object.keys(extraEnv));
  const command = redactCommand([wrapped.bin, ...wrapped.args], req.prompt);
  const started = Date.now();
  const parser = adapter.parser();
  let seq = 0;
  let keptBytes = 0;
  let capped = false;
  let truncated = false;

  const deliver = (msgs: Array<Omit<AgentMessage, 'seq' | 'at'>>) => {
    for (const m of msgs) {
      if (capped) continue;
      let content = m.content;
      if (content.length > MAX_MESSAGE_BYTES) {
        content = content.slice(0, MAX_MESSAGE_BYTES) + '\n… [message cut]';
        truncated = true;
      }
      if (keptBytes + content.length > OUTPUT_CAP_BYTES) {
        capped = truncated = true;
        hooks.onMessage?.({ seq: ++seq, kind: 'system', content: `output truncated: more than ${OUTPUT_CAP_BYTES / 1024 / 1024} MB of messages; the rest was dropped`, at: nowIso() });
        continue;
      }
      keptBytes += content.length;
      hooks.onMessage?.({ seq: ++seq, kind: m.kind, content, at: nowIso() });
    }
  };

  if (hooks.signal?.aborted) {
    return { status: 'cancelled', exitCode: null, finalText: '', usage: {}, error: 'cancelled before start', durationMs: 0, command, truncated: false };
  }

  return new Promise<AgentResult>((resolve) => {
    const fds = (wrapped.files ?? []).map((f) => openSync(f, 'r'));
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(wrapped.bin, wrapped.args, { cwd: req.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', ...fds] });
    } finally {
      for (const fd of fds) closeSync(fd);
    }
    const pid = child.pid;
    let endReason: 'cancelled' | 'timed_out' | undefined;
    let exited = false;
    let exitCode: number | null = null;
    let spawnError: Error | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    let done = false;

    const stop = (reason: 'cancelled' | 'timed_out') => {
      if (exited || endReason) return;
      endReason = reason;
      killGroup(pid, 'SIGTERM');
      wrapped.kill?.();
      killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop('timed_out'), Math.max(1, req.timeoutMs));
    const onAbort = () => stop('cancelled');
    hooks.signal?.addEventListener('abort', onAbort, { once: true });

    // stdout: split into lines by hand so a line without end cannot grow past MAX_LINE_BYTES.
    let parts: Buffer[] = [];
    let partLen = 0;
    let discarding = false;
    const handleLine = (buf: Buffer) => {
      const text = buf.toString('utf8').replace(/\r$/, '');
      if (!text) return;
      try {
        deliver(parser.line(text));
      } catch (e) {
        deliver([{ kind: 'error', content: `could not parse agent output: ${(e as Error).message}` }]);
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        if (nl < 0) break;
        if (discarding) discarding = false;
        else {
          const piece = chunk.subarray(start, nl);
          handleLine(partLen ? Buffer.concat([...parts, piece]) : piece);
        }
        parts = [];
        partLen = 0;
        start = nl + 1;
      }
      if (start < chunk.length && !discarding) {
        parts.push(chunk.subarray(start));
        partLen += chunk.length - start;
        if (partLen > MAX_LINE_BYTES) {
          parts = [];
          partLen = 0;
          discarding = true;
          truncated = true;
          deliver([{ kind: 'system', content: `a line of agent output longer than ${MAX_LINE_BYTES / 1024 / 1024} MB was dropped` }]);
        }
      }
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.length > STDERR_TAIL_BYTES * 2) stderr = stderr.slice(-STDERR_TAIL_BYTES);
    });

    const finalize = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      hooks.signal?.removeEventListener('abort', onAbort);
      if (partLen && !discarding) handleLine(Buffer.concat(parts));
      try {
        if (parser.end) deliver(parser.end());
      } catch {
        /* nothing buffered worth failing for */
      }
      const tail = stderr.slice(-STDERR_TAIL_BYTES);
      const out = parser.finish(exitCode, tail);
      const durationMs = Date.now() - started;
      const base = { exitCode, finalText: out.finalText, sessionId: out.sessionId, usage: out.usage, durationMs, command, truncated, pid };
      if (spawnError) {
        resolve({ ...base, status: 'failed', error: `could not start ${wrapped.bin}: ${spawnError.message}` });
      } else if (endReason === 'cancelled') {
        resolve({ ...base, status: 'cancelled', error: 'cancelled' });
      } else if (endReason === 'timed_out') {
        resolve({ ...base, status: 'timed_out', error: `timed out after ${Math.round(req.timeoutMs / 1000)} s` });
      } else {
        resolve({ ...base, status: out.ok ? 'completed' : 'failed', error: out.ok ? undefined : out.error });
      }
    };

    child.on('error', (e) => {
      spawnError = e;
      exited = true;
      finalize();
    });
    child.on('exit', (code, signal) => {
      exited = true;
      exitCode = code ?? (signal ? 128 + (({ SIGTERM: 15, SIGKILL: 9, SIGINT: 2 } as Record<string, number>)[signal] ?? 0) : null);
      // Whatever the agent left in its group (background tools, grandchildren) goes with it.
      killGroup(pid, 'SIGKILL');
      closeTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finalize();
      }, CLOSE_WAIT_MS);
    });
    child.on('close', () => {
      if (exited) finalize();
    });
    if (pid) hooks.onStart?.({ pid, command });
  });
}
