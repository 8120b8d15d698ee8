/**
 * Approved workspaces (design.md §7, §9): GET lists them; POST { path, label? } approves a folder (it must exist
 * and be a folder; stored as its real path); DELETE (body or query `path`, or /api/workspaces/{id}) revokes.
 * Approving gives agents a repository to work on, so changing the list needs the admin role.
 */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import { requireAdmin } from '../plugins/auth.js';
import { approveWorkspace, listWorkspaces, revokeWorkspace } from '../../workers/workspace.js';

const pathProp = { type: 'string', minLength: 1, maxLength: 4096 } as const;

export default async function workspaceRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/api/workspaces', async () => listWorkspaces(db));

  app.post<{ Body: { path: string; label?: string } }>('/api/workspaces', {
    onRequest: requireAdmin,
    schema: { body: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: pathProp, label: { type: 'string', maxLength: 200 } } } },
  }, async (req, reply) => {
    const { row, created } = approveWorkspace(db, req.body.path, { label: req.body.label, approvedBy: req.user?.username ?? null });
    reply.code(created ? 201 : 200);
    return row;
  });

  const revoke = async (target: string | undefined, reply: { code(n: number): unknown }) => {
    if (!target) throw new WfError('BAD_REQUEST', 'say which workspace: { "path": "/abs/path" } or ?path=');
    if (!revokeWorkspace(db, target)) throw new WfError('WORKSPACE_NOT_FOUND', `no approved workspace ${target}`);
    reply.code(204);
  };

  app.delete<{ Body?: { path?: string }; Querystring: { path?: string } }>('/api/workspaces', {
    onRequest: requireAdmin,
    schema: { querystring: { type: 'object', properties: { path: pathProp } } },
  }, async (req, reply) => {
    const body = req.body && typeof req.body === 'object' ? (req.body as { path?: unknown }) : {};
    await revoke(typeof body.path === 'string' ? body.path : req.query.path, reply);
  });

  app.delete<{ Params: { id: string } }>('/api/workspaces/:id', {
    onRequest: requireAdmin,
    schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } },
  }, async (req, reply) => revoke(req.params.id, reply));
}
