/**
 * GET /api/agents (design.md §9 catalogue): each agent CLI with whether its binary is found (PATH or
 * WFCTL_<AGENT>_BIN), its version (`<bin> --version`), its models (agent_definitions) and its MCP servers read
 * from the CLI's global configuration.
 */
import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { AGENTS, type AgentName } from '../../core/graph.js';
import { findAgentBinary } from '../../workers/agents/bin.js';
import { listMcpServers } from '../../workers/agents/mcp.js';

/** A CLI that hangs on --version must not hang the route. */
const VERSION_TIMEOUT_MS = 5000;

function version(bin: string): Promise<{ version?: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { timeout: VERSION_TIMEOUT_MS, encoding: 'utf8', env: process.env }, (err, stdout, stderr) => {
      if (err) return resolve({ error: (stderr || err.message).trim().split('\n')[0] });
      resolve({ version: stdout.trim().split('\n')[0] });
    });
  });
}

interface DefRow { name: string; display_name: string; binary: string; models: string; default_model: string | null }

export default async function agentRoutes(app: FastifyInstance) {
  const { db } = app.services;
  app.get('/api/agents', async () => {
    const defs = new Map((db.prepare('SELECT name, display_name, binary, models, default_model FROM agent_definitions').all() as DefRow[]).map((d) => [d.name, d]));
    return Promise.all(AGENTS.map(async (name: AgentName) => {
      const def = defs.get(name);
      const bin = findAgentBinary(name);
      const v = bin ? await version(bin) : {};
      const mcp = listMcpServers(name);
      return {
        name,
        display_name: def?.display_name ?? name,
        found: !!bin,
        path: bin ?? null,
        version: v.version ?? null,
        ...(v.error ? { version_error: v.error } : {}),
        models: def ? (JSON.parse(def.models) as string[]) : [],
        default_model: def?.default_model ?? null,
        mcp_servers: mcp.servers,
        mcp_config_path: mcp.config_path,
        ...(mcp.error ? { mcp_error: mcp.error } : {}),
      };
    }));
  });
}
