/**
 * Workflow runs (design §9): start, list, read, logs, cancel, resume. Starting checks the workspace, validates
 * and snapshots the graph, and inserts the run with its run.start job in one transaction (queue/lifecycle.ts).
 */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import { RUN_STATUSES } from '../../core/run-state.js';
import { cancelRun, createRun, resumeRun } from '../../queue/lifecycle.js';
import { runSummary, runView } from '../../queue/view.js';
import { listLogs } from '../../sql/logs.js';
import { getRun, listRuns } from '../../sql/runs.js';
import { requireWorkflow } from '../../sql/workflows.js';
import { resolveApprovedWorkspace } from '../../workers/workspace.js';
import { idParams } from '../schemas.js';

const startBody = {
  type: 'object',
  additionalProperties: false,
  required: ['workflow_id', 'workspace_path'],
  properties: {
    workflow_id: { type: 'string', minLength: 1, maxLength: 300 },
    workspace_path: { type: 'string', minLength: 1, maxLength: 4096 },
    write: { type: 'boolean', default: false },
  },
} as const;

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    workflow_id: { type: 'string', minLength: 1, maxLength: 300 },
    status: { type: 'string', enum: [...RUN_STATUSES] },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  },
} as const;

export default async function runRoutes(app: FastifyInstance) {
  const { db, config } = app.services;
  const requireRun = (id: string) => {
    const r = getRun(db, id);
    if (!r) throw new WfError('RUN_NOT_FOUND', `no run '${id}'`);
    return r;
  };

  app.post<{ Body: { workflow_id: string; workspace_path: string; write: boolean } }>('/api/workflow-runs', { schema: { body: startBody } }, async (req, reply) => {
    const wf = requireWorkflow(db, req.body.workflow_id);
    const workspacePath = resolveApprovedWorkspace(db, config, req.body.workspace_path);
    const run = createRun(db, {
      workflowId: wf.id, workflowName: wf.name, graph: wf.graph, workspacePath, write: req.body.write, createdBy: req.user?.id ?? null,
    });
    reply.code(201);
    return { run_id: run.id, status: run.status, workflow_id: wf.id, workspace_path: run.workspace_path };
  });

  app.get<{ Querystring: { workflow_id?: string; status?: string; limit: number } }>('/api/workflow-runs', { schema: { querystring: listQuery } }, async (req) => {
    let workflowId = req.query.workflow_id;
    if (workflowId) workflowId = requireWorkflow(db, workflowId).id;
    return listRuns(db, { workflowId, status: req.query.status, limit: req.query.limit }).map(runSummary);
  });

  app.get<{ Params: { id: string } }>('/api/workflow-runs/:id', { schema: { params: idParams } }, async (req) => runView(db, requireRun(req.params.id)));

  app.get<{ Params: { id: string } }>('/api/workflow-runs/:id/logs', { schema: { params: idParams } }, async (req) => {
    requireRun(req.params.id);
    return listLogs(db, req.params.id);
  });

  app.post<{ Params: { id: string } }>('/api/workflow-runs/:id/cancel', { schema: { params: idParams } }, async (req) => {
    const who = req.user?.username ?? 'a user';
    return runView(db, cancelRun(db, req.params.id, `cancelled by ${who}`));
  });

  app.post<{ Params: { id: string } }>('/api/workflow-runs/:id/resume', { schema: { params: idParams } }, async (req) => {
    return runView(db, resumeRun(db, req.params.id));
  });
}
