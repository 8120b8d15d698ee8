/**
 * The app as a Fastify plugin tree; `wfctl serve` (server/server.ts) is only the process shell around it.
 * Tests build it with buildApp() and use inject(), or listen on port 0.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import errors from './plugins/errors.js';
import auth from './plugins/auth.js';
import healthRoutes from './routes/health.js';
import authRoutes from './routes/auth.js';
import userRoutes from './routes/users.js';
import workflowRoutes from './routes/workflows.js';
import providerRoutes from './routes/providers.js';
import skillRoutes from './routes/skills.js';
import connectorRoutes from './routes/connectors.js';
import memoryRoutes from './routes/memory.js';
import planningRoutes from './routes/planning.js';
import runRoutes from './routes/runs.js';
import artifactRoutes from './routes/artifacts.js';
import approvalRoutes from './routes/approvals.js';
import eventRoutes from './routes/events.js';
import agentRoutes from './routes/agents.js';
import workspaceRoutes from './routes/workspaces.js';
import runtimeRoutes from './routes/runtimes.js';
import uiRoutes from './routes/ui.js';
import type { Services } from './services.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Called for every route as it is registered (test/server/routes-auth.test.ts enumerates them this way). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(services: Services, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 5 * 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
  app.decorate('services', services);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  await app.register(errors);
  await app.register(auth);
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(workflowRoutes);
  await app.register(providerRoutes);
  await app.register(skillRoutes);
  await app.register(connectorRoutes);
  await app.register(memoryRoutes);
  await app.register(planningRoutes);
  await app.register(runRoutes);
  await app.register(artifactRoutes);
  await app.register(approvalRoutes);
  await app.register(eventRoutes);
  await app.register(agentRoutes);
  await app.register(workspaceRoutes);
  await app.register(runtimeRoutes);
  // The web UI last: its wildcard answers every non-/api GET with the app shell (server/routes/ui.ts).
  await app.register(uiRoutes);
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: `no route ${req.method} ${req.url.split('?')[0]}` });
  });
  return app;
}
