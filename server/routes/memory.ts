/** A run's memory (design.md §9): read (sensitive values masked unless an admin asks ?reveal=true) and clear. */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import { clearRunMemory, readRunMemory } from '../../sql/memory-read.js';

const params = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export default async function memoryRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get<{ Params: { id: string }; Querystring: { reveal: boolean } }>('/api/workflow-runs/:id/memory', {
    schema: {
      params,
      querystring: { type: 'object', additionalProperties: false, properties: { reveal: { type: 'boolean', default: false } } },
    },
  }, async (req) => {
    if (req.query.reveal && req.user!.role !== 'admin') throw new WfError('FORBIDDEN', 'only an admin can reveal sensitive memory values');
    return readRunMemory(db, req.params.id, req.query.reveal);
  });

  app.delete<{ Params: { id: string } }>('/api/workflow-runs/:id/memory', { schema: { params } }, async (req, reply) => {
    clearRunMemory(db, req.params.id);
    reply.code(204);
  });
}
