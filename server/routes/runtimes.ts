/**
 * The host runner (design.md §9): POST /api/runtimes/direct-cli/run and /api/runtimes/container-sandbox/run
 * `{ agent, model?, prompt, workspace_path, timeout_s?, write?, sandbox?, image?, provider? }` run one agent CLI to the end
 * and answer `{ status, exit_code, output, messages, usage, session_id, error, duration_ms, truncated }`.
 * In `wfctl serve` they sit behind the session auth like every route; `wfctl runner` serves them alone
 * (buildRunnerApp) behind a shared secret (`$WFCTL_HOME/secrets/runner`) sent as a Bearer token, for a server
 * that runs in a container and needs the CLIs run on the host. A client that disconnects cancels its agent.
 * Given an approved workspace rather than a run's working copy, the agent works in a throw-away copy of it.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../../core/config.js';
import { WfError } from '../../core/errors.js';
import { AGENTS } from '../../core/graph.js';
import type { DB } from '../../sql/db.js';
import { readSecret, writeSecret } from '../../sql/secrets.js';
import { resolveProvider } from '../../workers/agents/providers.js';
import { runAgent } from '../../workers/agents/run.js';
import type { AgentMessage, AgentRequest } from '../../workers/agents/types.js';
import { prepareWorkingCopy, resolveApprovedWorkspace } from '../../workers/workspace.js';
import { detectSandbox } from '../../workers/sandbox/detect.js';
import errors from '../plugins/errors.js';
import { bearerToken } from '../plugins/auth.js';

interface RunBody {
  agent: AgentRequest['agent'];
  model?: string;
  prompt: string;
  workspace_path: string;
  timeout_s?: number;
  write?: boolean;
  sandbox?: boolean;
  image?: string;
  provider?: string;
}

const body = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'prompt', 'workspace_path'],
  properties: {
    agent: { type: 'string', enum: [...AGENTS] },
    model: { type: 'string', minLength: 1, maxLength: 200 },
    prompt: { type: 'string', minLength: 1, maxLength: 1_000_000 },
    workspace_path: { type: 'string', minLength: 1, maxLength: 4096 },
    timeout_s: { type: 'number', minimum: 1, maximum: 7 * 24 * 3600 },
    write: { type: 'boolean' },
    sandbox: { type: 'boolean' },
    image: { type: 'string', minLength: 1, maxLength: 500 },
    provider: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/**
 * A run's working copy (used as it is), or an approved workspace (the agent gets a throw-away copy of it, so the
 * user's checkout is never touched): nothing else is given to an agent.
 */
async function workingDir(db: DB, config: Config, p: string): Promise<{ cwd: string; cleanup?: () => Promise<void> }> {
  const runs = path.join(config.home, 'artifacts', 'runs') + path.sep;
  const abs = path.resolve(p);
  if (abs.startsWith(runs)) {
    try {
      return { cwd: resolveApprovedWorkspace(db, { ...config, workspaceRoots: [runs] }, abs) };
    } catch {
      /* fall through to the ordinary check, which explains itself */
    }
  }
  const approved = resolveApprovedWorkspace(db, config, abs);
  const id = `runner-${randomUUID()}`;
  const cwd = await prepareWorkingCopy(config, id, approved);
  return { cwd, cleanup: () => rm(path.dirname(cwd), { recursive: true, force: true }) };
}

export default async function runtimeRoutes(app: FastifyInstance) {
  const { db, config } = app.services;
  for (const [route, runtime] of [['direct-cli', 'direct'], ['container-sandbox', 'container']] as const) {
    app.post<{ Body: RunBody }>(`/api/runtimes/${route}/run`, { schema: { body } }, async (req, reply) => {
      const b = req.body;
      const { cwd, cleanup } = await workingDir(db, config, b.workspace_path);
      const ac = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) ac.abort();
      });
      const messages: AgentMessage[] = [];
      const res = await runAgent({
        agent: b.agent, model: b.model, prompt: b.prompt, cwd, write: b.write ?? false, runtime, sandbox: b.sandbox ?? true,
        timeoutMs: b.timeout_s ? b.timeout_s * 1000 : config.nodeTimeoutMs, image: b.image,
        // This side's providers and keys: the runner's own secrets folder holds them.
        provider: resolveProvider(db, config, b.agent, b.provider),
      }, { signal: ac.signal, onMessage: (m) => messages.push(m) }).finally(() => cleanup?.());
      return {
        status: res.status, exit_code: res.exitCode, output: res.finalText, messages, usage: res.usage, session_id: res.sessionId ?? null,
        error: res.error ?? null, duration_ms: res.durationMs, truncated: res.truncated, command: res.command,
      };
    });
  }
}

/** The runner's shared secret, created (random, 32 bytes) on first use. */
export function runnerSecret(config: Pick<Config, 'home'>): string {
  const existing = readSecret(config.home, 'runner')?.trim();
  if (existing) return existing;
  const s = randomBytes(32).toString('base64url');
  writeSecret(config.home, 'runner', s);
  return s;
}

/** The host-runner app served by `wfctl runner`: only the runtime routes, behind the shared secret. */
export async function buildRunnerApp(db: DB, config: Config, secret: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  app.decorate('services', { db, config, scheduler: () => ({ status: 'disabled' as const }), sandbox: () => detectSandbox() });
  await app.register(errors);
  const want = Buffer.from(secret);
  app.addHook('onRequest', async (req) => {
    if (req.url === '/api/health') return;
    const got = Buffer.from(bearerToken(req) ?? '');
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new WfError('UNAUTHORIZED', 'the host runner needs Authorization: Bearer <the runner secret from $WFCTL_HOME/secrets/runner>');
  });
  app.get('/api/health', async () => ({ status: 'ok', runner: true, sandbox: detectSandbox() }));
  await app.register(runtimeRoutes);
  return app;
}
