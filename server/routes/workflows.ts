/**
 * Workflows and templates (design.md §9). `{id}` accepts an id, an exact name or a slug everywhere
 * (resolveWorkflow); graphs are validated on save with core/graph.ts (422 GRAPH_INVALID naming the node).
 */
import type { FastifyInstance } from 'fastify';
import { assertValidGraph, type Graph } from '../../core/graph.js';
import { WfError } from '../../core/errors.js';
import {
  copyWorkflow, deleteWorkflow, insertWorkflow, listWorkflows, requireWorkflow, updateWorkflow, workflowRuns, type WorkflowKind,
} from '../../sql/workflows.js';
import { idOrNameParams, noQuery } from '../schemas.js';

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const description = { type: 'string', maxLength: 5000 } as const;
// The graph's inner shape is checked by assertValidGraph, which names the node and the problem (422).
const graph = { type: 'object' } as const;

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'graph'],
  properties: { name, description, graph },
} as const;

const updateBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { name, description, graph },
} as const;

const copyBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { name },
} as const;

/** 1 MB of graph JSON is far beyond any hand-made or planned workflow; the cap keeps rows small. */
const MAX_GRAPH_BYTES = 1024 * 1024;

function checkName(n: string): string {
  const t = n.trim();
  if (!t) throw new WfError('VALIDATION_FAILED', 'name must not be blank');
  return t;
}

function checkGraph(g: unknown): Graph {
  assertValidGraph(g);
  if (JSON.stringify(g).length > MAX_GRAPH_BYTES) throw new WfError('VALIDATION_FAILED', `graph is larger than ${MAX_GRAPH_BYTES} bytes`);
  return g;
}

export default async function workflowRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get<{ Querystring: { kind: WorkflowKind } }>('/api/workflows', {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { kind: { type: 'string', enum: ['user', 'template'], default: 'user' } },
      },
    },
  }, async (req) => listWorkflows(db, req.query.kind));

  app.post<{ Body: { name: string; description?: string; graph: unknown } }>('/api/workflows', { schema: { body: createBody } }, async (req, reply) => {
    const w = insertWorkflow(db, { kind: 'user', name: checkName(req.body.name), description: req.body.description, graph: checkGraph(req.body.graph), created_by: req.user!.id });
    reply.code(201);
    return w;
  });

  app.get<{ Params: { id: string } }>('/api/workflows/:id', { schema: { params: idOrNameParams, querystring: noQuery } }, async (req) => requireWorkflow(db, req.params.id));

  app.put<{ Params: { id: string }; Body: { name?: string; description?: string; graph?: unknown } }>(
    '/api/workflows/:id',
    { schema: { params: idOrNameParams, body: updateBody } },
    async (req) => {
      const w = requireWorkflow(db, req.params.id);
      const b = req.body;
      return updateWorkflow(db, w.id, {
        name: b.name === undefined ? undefined : checkName(b.name),
        description: b.description,
        graph: b.graph === undefined ? undefined : checkGraph(b.graph),
      });
    },
  );

  app.delete<{ Params: { id: string } }>('/api/workflows/:id', { schema: { params: idOrNameParams } }, async (req, reply) => {
    deleteWorkflow(db, requireWorkflow(db, req.params.id).id);
    reply.code(204);
  });

  app.post<{ Params: { id: string }; Body: { name?: string } | null }>(
    '/api/workflows/:id/publish',
    { schema: { params: idOrNameParams, body: copyBody } },
    async (req, reply) => {
      const w = requireWorkflow(db, req.params.id);
      if (w.kind !== 'user') throw new WfError('VALIDATION_FAILED', `'${w.name}' is already a template; use it to make an editable copy`);
      const name = req.body?.name === undefined ? undefined : checkName(req.body.name);
      reply.code(201);
      return copyWorkflow(db, w.id, 'template', { name, created_by: req.user!.id, lockCheck: true });
    },
  );

  app.post<{ Params: { id: string }; Body: { name?: string } | null }>(
    '/api/workflows/:id/use',
    { schema: { params: idOrNameParams, body: copyBody } },
    async (req, reply) => {
      const w = requireWorkflow(db, req.params.id);
      if (w.kind !== 'template') throw new WfError('VALIDATION_FAILED', `'${w.name}' is not a template; only templates can be used`);
      const name = req.body?.name === undefined ? undefined : checkName(req.body.name);
      reply.code(201);
      return copyWorkflow(db, w.id, 'user', { name, created_by: req.user!.id, lockCheck: false });
    },
  );

  app.get<{ Params: { id: string }; Querystring: { limit: number } }>('/api/workflows/:id/runs', {
    schema: {
      params: idOrNameParams,
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      },
    },
  }, async (req) => workflowRuns(db, requireWorkflow(db, req.params.id).id, req.query.limit));
}
