/** User management (admin only, spec §5.4): list, create, delete (never yourself, never the last admin). */
import type { FastifyInstance } from 'fastify';
import { createUser, deleteUser, listUsers, type Role } from '../../sql/users.js';
import { requireAdmin } from '../plugins/auth.js';
import { idParams, noQuery } from '../schemas.js';

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password', 'role'],
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 200 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
    role: { type: 'string', enum: ['admin', 'operator'] },
  },
} as const;

export default async function userRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/api/users', { onRequest: requireAdmin, schema: { querystring: noQuery } }, async () => listUsers(db));

  app.post<{ Body: { username: string; password: string; role: Role } }>(
    '/api/users',
    { onRequest: requireAdmin, schema: { body: createBody } },
    async (req, reply) => {
      const user = await createUser(db, req.body);
      reply.code(201);
      return user;
    },
  );

  app.delete<{ Params: { id: string } }>('/api/users/:id', { onRequest: requireAdmin, schema: { params: idParams } }, async (req, reply) => {
    deleteUser(db, req.params.id, req.user!.id);
    reply.code(204);
  });
}
