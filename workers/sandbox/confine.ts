/**
 * Wraps an agent command in the confinement its request asks for: a container (runtime: container),
 * bubblewrap (runtime: direct on Linux), or nothing when the sandbox was explicitly waived. No mechanism and
 * no waiver is refused with one clear line.
 */
import { WfError } from '../../core/errors.js';
import type { AgentRequest } from '../agents/types.js';
import { agentConfigCopies, bwrapArgs } from './bwrap.js';
import { containerCommand, findContainerEngine } from './container.js';
import { detectSandbox } from './detect.js';

export interface Confined {
  bin: string;
  args: string[];
  /** Extra kill step on cancel (docker kill); the process group is killed anyway. */
  kill?: () => void;
  /** Files to open on fds 3, 4, … of the spawned process (bwrap `--file`); the caller closes them after spawn. */
  files?: string[];
  mechanism: 'bwrap' | 'container' | 'none';
}

export function confine(req: AgentRequest, cmd: { bin: string; args: string[] }, env: NodeJS.ProcessEnv, extraEnvNames: string[]): Confined {
  if (req.runtime === 'container') {
    const c = containerCommand({ engine: findContainerEngine(env), image: req.image, cwd: req.cwd, write: req.write, envNames: extraEnvNames }, cmd.bin, cmd.args, env);
    return { bin: c.bin, args: c.args, kill: c.kill, mechanism: 'container' };
  }
  if (!req.sandbox) return { ...cmd, mechanism: 'none' };
  const kind = detectSandbox();
  if (kind === 'bwrap') {
    const o = { agent: req.agent, cwd: req.cwd, write: req.write, env, hide: req.hide };
    return { bin: 'bwrap', args: bwrapArgs(o, cmd.bin, cmd.args), files: agentConfigCopies(req.agent, env), mechanism: 'bwrap' };
  }
  if (kind === 'sandbox-exec') {
    throw new WfError('SANDBOX_UNAVAILABLE', 'sandbox-exec confinement is not implemented yet; run with --no-sandbox (or `sandbox: false`), or use runtime: container');
  }
  throw new WfError('SANDBOX_UNAVAILABLE', 'no sandbox is available on this host (bubblewrap missing or user namespaces disabled); run with --no-sandbox (or `sandbox: false`) to run agents unconfined, or use runtime: container');
}
