/**
 * The app as a Fastify plugin tree; `wfctl serve` (server/server.ts) is only the process shell around it.
 * Tests build it with buildApp() and use inject(), or listen on port 0.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import errors from './plugins/errors.js';
import auth from './plugins/auth.js';
import healthRoutes from './routes/health.js';
import type { Services } from './services.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(services: Services, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 5 * 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
  app.decorate('services', services);
  await app.register(errors);
  await app.register(auth);
  await app.register(healthRoutes);
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: `no route ${req.method} ${req.url.split('?')[0]}` });
  });
  return app;
}
