/** Finding an agent CLI's binary: `WFCTL_<AGENT>_BIN`, else the first executable of that name on PATH. */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { AgentName } from '../../core/graph.js';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The absolute path of the agent's binary, or undefined when it is not installed. */
export function findAgentBinary(agent: AgentName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const override = env[`WFCTL_${agent.toUpperCase()}_BIN`];
  if (override) return executable(override) ? path.resolve(override) : undefined;
  return findOnPath(agent, env);
}

/** The first executable called `name` on PATH. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (executable(file)) return path.resolve(file);
  }
  return undefined;
}
