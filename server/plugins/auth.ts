/**
 * The single authentication hook. Every route needs `Authorization: Bearer <token>` unless it declares
 * `config: { public: true }` (design.md §8: health, auth status, bootstrap, login; plus the web UI's static
 * files). Secure by default: a route added without thinking about auth is protected.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { WfError } from '../../core/errors.js';
import { validateSessionToken, type Session, type SessionUser } from '../../sql/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    user?: SessionUser;
    session?: Session;
  }
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean;
  }
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

/** preHandler for admin-only routes. */
export async function requireAdmin(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (req.user?.role !== 'admin') throw new WfError('FORBIDDEN', 'this action needs the admin role');
}

export default fp(async function authPlugin(app: FastifyInstance) {
  app.decorateRequest('user', undefined);
  app.decorateRequest('session', undefined);
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.public) return;
    // Unmatched paths fall through to the not-found handler, which reveals nothing.
    if (req.routeOptions.url === undefined) return;
    const token = bearerToken(req);
    if (!token) throw new WfError('UNAUTHORIZED', 'sign in first: send Authorization: Bearer <token>');
    const found = validateSessionToken(app.services.db, token);
    if (!found) throw new WfError('UNAUTHORIZED', 'the session has expired or was signed out; sign in again');
    req.user = found.user;
    req.session = found.session;
  });
}, { name: 'wfctl-auth', dependencies: ['wfctl-errors'] });
