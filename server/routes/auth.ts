/**
 * Authentication (spec §5, design.md §9): status, bootstrap, login, logout, me. Status, bootstrap and login are
 * the public routes; login is rate limited per client address and per user name (plugins/ratelimit.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { WfError } from '../../core/errors.js';
import { createSession, invalidateSession, validateSessionToken } from '../../sql/sessions.js';
import { bearerToken } from '../plugins/auth.js';
import { countUsers, createUser, findUserForLogin, getUser, verifyPassword, warmDummyHash, type PublicUser } from '../../sql/users.js';
import { LOGIN_LIMITS, SlidingWindowLimiter } from '../plugins/ratelimit.js';
import { noQuery } from '../schemas.js';

export const credentialsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 200 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

interface Credentials {
  username: string;
  password: string;
}

function tooMany(reply: FastifyReply, ms: number, what: string): never {
  const secs = Math.ceil(ms / 1000);
  reply.header('retry-after', String(secs));
  throw new WfError('RATE_LIMITED', `too many sign-in attempts ${what}; try again in ${secs} s`);
}

export default async function authRoutes(app: FastifyInstance) {
  const { db } = app.services;
  // Counts live in the database: a restart does not reset them.
  const byAddress = new SlidingWindowLimiter(db, 'address', LOGIN_LIMITS.perAddress);
  const byUsername = new SlidingWindowLimiter(db, 'username', LOGIN_LIMITS.perUsername);
  warmDummyHash();

  app.get('/api/auth/status', { config: { public: true }, schema: { querystring: noQuery } }, async (req) => {
    // The hook skips public routes, so read the optional token here to report who is signed in.
    const bootstrapped = countUsers(db) > 0;
    const token = bearerToken(req);
    const found = token ? validateSessionToken(db, token) : null;
    return { bootstrapped, ...(found ? { user: found.user } : {}) };
  });

  app.post<{ Body: Credentials }>('/api/auth/bootstrap', { config: { public: true }, schema: { body: credentialsBody } }, async (req, reply) => {
    // Cheap early answer; createUser re-checks inside its write transaction, which is what makes this race-safe.
    if (countUsers(db) > 0) throw new WfError('BOOTSTRAP_DONE', 'wfctl is already set up; sign in, or ask an admin for an account');
    const user = await createUser(db, { ...req.body, role: 'admin' }, { onlyIfNone: true });
    const { token, session } = createSession(db, user.id, { ip: req.ip, userAgent: req.headers['user-agent'] });
    reply.code(201);
    return { token, user, expires_at: session.expires_at };
  });

  app.post<{ Body: Credentials }>('/api/auth/login', { config: { public: true }, schema: { body: credentialsBody } }, async (req, reply) => {
    const nameKey = req.body.username.toLowerCase();
    const addrWait = byAddress.retryAfterMs(req.ip);
    if (addrWait) tooMany(reply, addrWait, 'from this address');
    const nameWait = byUsername.retryAfterMs(nameKey);
    if (nameWait) tooMany(reply, nameWait, 'for this user name');
    byAddress.hit(req.ip);
    const row = findUserForLogin(db, req.body.username);
    const ok = await verifyPassword(req.body.password, row?.password_hash);
    if (!row || !ok) {
      byUsername.hit(nameKey);
      throw new WfError('INVALID_CREDENTIALS', 'wrong user name or password');
    }
    byUsername.reset(nameKey);
    const { token, session } = createSession(db, row.id, { ip: req.ip, userAgent: req.headers['user-agent'] });
    const user: PublicUser = getUser(db, row.id)!;
    return { token, user, expires_at: session.expires_at };
  });

  app.post('/api/auth/logout', async (req, reply) => {
    invalidateSession(db, req.session!.id);
    reply.code(204);
  });

  app.get('/api/auth/me', { schema: { querystring: noQuery } }, async (req) => {
    const user = getUser(db, req.user!.id);
    if (!user) throw new WfError('UNAUTHORIZED', 'your account no longer exists; sign in again');
    return { ...user, session_expires_at: req.session!.expires_at };
  });
}
