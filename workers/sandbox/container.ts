/**
 * `runtime: container`: the agent CLI runs in a docker or podman container (whichever is found on PATH, docker
 * first) with the working copy mounted at /workspace. Environment values reach the container by name only
 * (`-e NAME`, value taken from the docker client's own environment), so keys never appear in argv. The
 * container has a fixed name so a cancel can `docker kill` it.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WfError } from '../../core/errors.js';
import { findOnPath } from '../agents/bin.js';

/** Default image; it must contain the agent CLIs (override per node with `image`, or WFCTL_AGENT_IMAGE). */
export const DEFAULT_AGENT_IMAGE = 'wfctl/agents:latest';

export function findContainerEngine(env: NodeJS.ProcessEnv = process.env): string {
  const engine = findOnPath('docker', env) ?? findOnPath('podman', env);
  if (!engine) throw new WfError('SANDBOX_UNAVAILABLE', 'runtime: container needs docker or podman on PATH; install one or use runtime: direct');
  return engine;
}

export interface ContainerOptions {
  engine: string;
  image?: string;
  cwd: string;
  write: boolean;
  /** Names of environment variables to pass through (values stay in the client's environment). */
  envNames: string[];
}

export function containerCommand(o: ContainerOptions, bin: string, args: string[], env: NodeJS.ProcessEnv = process.env): { bin: string; args: string[]; name: string; kill: () => void } {
  const name = `wfctl-agent-${randomUUID().slice(0, 12)}`;
  const image = o.image || env.WFCTL_AGENT_IMAGE || DEFAULT_AGENT_IMAGE;
  const a = ['run', '--rm', '--name', name, '--init', '-v', `${o.cwd}:/workspace${o.write ? '' : ':ro'}`];
  // As under bwrap, the copy's .git is read-only for the agent (wfctl commits outside, after the run).
  if (o.write && existsSync(path.join(o.cwd, '.git'))) a.push('-v', `${path.join(o.cwd, '.git')}:/workspace/.git:ro`);
  a.push('-w', '/workspace');
  // Files the agent writes in the copy stay owned by the user running wfctl.
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0) a.push('--user', `${uid}:${process.getgid?.()}`);
  for (const n of [...new Set(o.envNames)].sort()) a.push('-e', n);
  a.push(image, bin, ...args);
  const kill = () => {
    const k = spawn(o.engine, ['kill', name], { stdio: 'ignore', detached: true, env });
    k.on('error', () => {});
    k.unref();
  };
  return { bin: o.engine, args: a, name, kill };
}
