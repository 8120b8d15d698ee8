/** Skills (design.md §9 catalogue): full CRUD; built-ins are edited and deleted like any skill (spec §1.9). */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import { deleteSkill, insertSkill, listSkills, requireSkill, updateSkill, type SkillInput } from '../../sql/catalogue.js';
import { idParams, noQuery } from '../schemas.js';

const props = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 2000 },
  compatible_roles: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 100 } },
  prompt_template: { type: 'string', minLength: 1, maxLength: 100_000 },
} as const;

function check(b: SkillInput): SkillInput {
  if (b.name !== undefined && !b.name.trim()) throw new WfError('VALIDATION_FAILED', 'name must not be blank');
  if (b.prompt_template !== undefined && !b.prompt_template.trim()) throw new WfError('VALIDATION_FAILED', 'prompt_template must not be blank');
  return { ...b, name: b.name?.trim() };
}

export default async function skillRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/api/skills', { schema: { querystring: noQuery } }, async () => listSkills(db));

  app.post<{ Body: SkillInput & { name: string; prompt_template: string } }>('/api/skills', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['name', 'prompt_template'], properties: props } },
  }, async (req, reply) => {
    const s = insertSkill(db, check(req.body) as SkillInput & { name: string; prompt_template: string });
    reply.code(201);
    return s;
  });

  app.get<{ Params: { id: string } }>('/api/skills/:id', { schema: { params: idParams, querystring: noQuery } }, async (req) => requireSkill(db, req.params.id));

  app.patch<{ Params: { id: string }; Body: SkillInput }>('/api/skills/:id', {
    schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: props } },
  }, async (req) => updateSkill(db, req.params.id, check(req.body)));

  app.delete<{ Params: { id: string } }>('/api/skills/:id', { schema: { params: idParams } }, async (req, reply) => {
    deleteSkill(db, req.params.id);
    reply.code(204);
  });
}
