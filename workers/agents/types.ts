/**
 * The contract between the engine and the agent runtimes. The engine's node executors call
 * `runRecordedAgent` (workers/agents/record.ts), which runs `runAgent` (workers/agents/run.ts) and
 * persists agent_runs / agent_messages / agent.* events. Adapters (claude.ts, codex.ts, gemini.ts) turn a
 * request into the CLI's exact headless command line and parse its output stream.
 */
import type { AgentName } from '../../core/graph.js';

export type MessageKind = 'system' | 'text' | 'reasoning' | 'tool_use' | 'tool_result' | 'error' | 'result';

export interface AgentRequest {
  agent: AgentName;
  model?: string;
  prompt: string;
  /** The run's isolated working copy; the agent's cwd. */
  cwd: string;
  /** Whether the agent may edit files (permission flags); read-only runs get read-only / plan modes. */
  write: boolean;
  runtime: 'direct' | 'container';
  /** Confine a direct agent with the OS mechanism (bwrap / sandbox-exec); false only when explicitly waived. */
  sandbox: boolean;
  /** Wall-clock limit; on expiry the process group is killed and the result is `timed_out`. */
  timeoutMs: number;
  /** Extra environment (model provider settings). Never logged, never on a command line. */
  env?: Record<string, string>;
  /** Container image for runtime 'container'. */
  image?: string;
  /**
   * Hand the agent to a host runner (`wfctl runner`, design.md §9) instead of spawning it here: the caller's
   * config.runnerUrl, and the home whose secrets/runner holds the shared secret.
   */
  runner?: { url: string; home: string };
  /**
   * Model provider the agent talks to (see workers/agents/providers.ts resolveProvider). Its API key is read
   * from `<home>/secrets/provider-<id>` at spawn time and placed in the environment only.
   */
  provider?: ProviderSettings;
  /** Extra folders made invisible inside the sandbox (besides HOME and the wfctl home the copy lives in). */
  hide?: string[];
}

/** A configured model provider as an agent needs it. */
export interface ProviderSettings {
  id: string;
  name: string;
  type: 'local' | 'openai-compatible' | 'anthropic-compatible';
  baseUrl?: string;
  /** The wfctl home whose secrets folder holds `provider-<id>`. */
  home: string;
}

export interface AgentMessage {
  seq: number;
  kind: MessageKind;
  content: string;
  at: string;
}

export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  costUsd?: number;
}

export interface AgentResult {
  status: 'completed' | 'failed' | 'cancelled' | 'timed_out';
  exitCode: number | null;
  /** The agent's final answer (Claude's result, Codex's last agent_message, Gemini's response). */
  finalText: string;
  sessionId?: string;
  usage: AgentUsage;
  /** Why it failed, in the CLI's own words where it gave any. */
  error?: string;
  durationMs: number;
  /** argv as spawned, with the prompt replaced by `<prompt: N chars>` so stored commands stay small. */
  command: string[];
  /** Output beyond the per-agent cap was dropped (a note says so in the messages). */
  truncated: boolean;
  pid?: number;
}

export interface RunAgentHooks {
  onStart?(info: { pid: number; command: string[] }): void;
  onMessage?(m: AgentMessage): void;
  /** Aborting kills the agent's whole process group (TERM, then KILL after a grace period). */
  signal?: AbortSignal;
}

/** One CLI's headless interface. */
export interface AgentAdapter {
  name: AgentName;
  /** The binary to run (WFCTL_<AGENT>_BIN or the name on PATH) and its exact argv. */
  command(req: AgentRequest, secrets?: { apiKey?: string }): { bin: string; args: string[]; env: Record<string, string> };
  /** A fresh stateful parser for one run's stdout lines. */
  parser(): AgentStreamParser;
}

export interface AgentStreamParser {
  /** Feeds one stdout line; returns the messages it carries (possibly none). */
  line(text: string): Array<Omit<AgentMessage, 'seq' | 'at'>>;
  /** After exit, before finish: messages the parser still buffers (e.g. Gemini's text deltas). */
  end?(): Array<Omit<AgentMessage, 'seq' | 'at'>>;
  /** After exit: the outcome, from what was parsed, the exit code and stderr (Gemini's JSON error is there). */
  finish(exitCode: number | null, stderr: string): Pick<AgentResult, 'finalText' | 'sessionId' | 'usage' | 'error'> & { ok: boolean };
}
