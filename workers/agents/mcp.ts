/**
 * MCP servers as each CLI's global configuration declares them (read-only; design.md §7): Claude's
 * `~/.claude.json` `mcpServers`, Codex's `~/.codex/config.toml` (or $CODEX_HOME) `[mcp_servers.*]`, Gemini's
 * `~/.gemini/settings.json` (or $GEMINI_CLI_HOME/.gemini) `mcpServers`. Environment values and headers may hold
 * secrets, so only their names are returned.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { AgentName } from '../../core/graph.js';

export interface McpServer {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  url?: string;
  env_keys: string[];
  enabled: boolean;
}

export interface McpListing {
  config_path: string;
  servers: McpServer[];
  /** Set when the file exists but cannot be read or parsed. */
  error?: string;
}

const arr = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);
const keys = (v: unknown): string[] => (v && typeof v === 'object' ? Object.keys(v as object) : []);

function fromEntry(name: string, s: Record<string, unknown>, agent: AgentName): McpServer {
  const url = (s.httpUrl ?? s.url) as string | undefined;
  const transport: McpServer['transport'] = !url ? 'stdio' : s.type === 'sse' || (agent === 'gemini' && !s.httpUrl) ? 'sse' : 'http';
  return {
    name,
    transport,
    ...(typeof s.command === 'string' ? { command: s.command } : {}),
    ...(arr(s.args) ? { args: arr(s.args) } : {}),
    ...(url ? { url: String(url) } : {}),
    env_keys: [...keys(s.env), ...keys(s.headers), ...keys(s.http_headers)],
    enabled: s.enabled !== false && s.disabled !== true,
  };
}

export function mcpConfigPath(agent: AgentName, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || os.homedir();
  if (agent === 'claude') return path.join(home, '.claude.json');
  if (agent === 'codex') return path.join(env.CODEX_HOME || path.join(home, '.codex'), 'config.toml');
  return path.join(env.GEMINI_CLI_HOME || home, '.gemini', 'settings.json');
}

export function listMcpServers(agent: AgentName, env: NodeJS.ProcessEnv = process.env): McpListing {
  const file = mcpConfigPath(agent, env);
  if (!existsSync(file)) return { config_path: file, servers: [] };
  try {
    const text = readFileSync(file, 'utf8');
    const data = (agent === 'codex' ? parseToml(text) : JSON.parse(text)) as Record<string, unknown>;
    const table = (agent === 'codex' ? data.mcp_servers : data.mcpServers) as Record<string, Record<string, unknown>> | undefined;
    const servers = Object.entries(table ?? {}).filter(([, s]) => s && typeof s === 'object').map(([n, s]) => fromEntry(n, s, agent));
    return { config_path: file, servers };
  } catch (e) {
    return { config_path: file, servers: [], error: `cannot read ${file}: ${(e as Error).message}` };
  }
}
