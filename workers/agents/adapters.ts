/** The adapter of each agent CLI. */
import type { AgentName } from '../../core/graph.js';
import type { AgentAdapter } from './types.js';
import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';
import { geminiAdapter } from './gemini.js';

export const ADAPTERS: Record<AgentName, AgentAdapter> = { claude: claudeAdapter, codex: codexAdapter, gemini: geminiAdapter };

export function getAdapter(agent: AgentName): AgentAdapter {
  const a = ADAPTERS[agent];
  if (!a) throw new Error(`unknown agent '${agent}' (expected claude, codex or gemini)`);
  return a;
}
