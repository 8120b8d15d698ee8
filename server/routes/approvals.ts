/**
 * Approvals (spec §4, design §6/§9): list and detail (expiry applied first), and the three resolution routes,
 * under /api and at the spec's unprefixed paths.
 */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import type { ApprovalAction } from '../../core/graph.js';
import { APPROVAL_STATUSES } from '../../core/run-state.js';
import { expireApprovals, resolveApproval } from '../../queue/lifecycle.js';
import { runSummary } from '../../queue/view.js';
import { getApproval, listApprovals, toApproval } from '../../sql/approvals.js';

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...APPROVAL_STATUSES] },
    run_id: { type: 'string', minLength: 1, maxLength: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200 },
  },
} as const;

const resolveParams = {
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'approval_id'],
  properties: { run_id: { type: 'string', minLength: 1, maxLength: 100 }, approval_id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

// The body is optional (no note); when sent it holds only the note.
const resolveBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { note: { type: ['string', 'null'], maxLength: 10_000 } },
} as const;

const ROUTES: Array<[string, ApprovalAction]> = [['approve', 'approve'], ['reject', 'reject'], ['request-revision', 'request_revision']];

export default async function approvalRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get<{ Querystring: { status?: string; run_id?: string; limit: number } }>('/api/approvals', { schema: { querystring: listQuery } }, async (req) => {
    expireApprovals(db);
    return listApprovals(db, { status: req.query.status, runId: req.query.run_id, limit: req.query.limit }).map(toApproval);
  });

  app.get<{ Params: { id: string } }>('/api/approvals/:id', {
    schema: { params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } },
  }, async (req) => {
    expireApprovals(db);
    const a = getApproval(db, req.params.id);
    if (!a) throw new WfError('APPROVAL_NOT_FOUND', `no approval '${req.params.id}'`);
    return toApproval(a);
  });

  for (const prefix of ['/api', '']) {
    for (const [segment, action] of ROUTES) {
      app.post<{ Params: { run_id: string; approval_id: string }; Body: { note?: string | null } | null }>(
        `${prefix}/workflow-runs/:run_id/${segment}/:approval_id`,
        { schema: { params: resolveParams, body: resolveBody } },
        async (req) => {
          const { approval, run } = resolveApproval(db, {
            runId: req.params.run_id, approvalId: req.params.approval_id, action, note: req.body?.note ?? null,
            user: req.user ? { id: req.user.id, username: req.user.username } : null,
          });
          return { ...approval, run: runSummary(run) };
        },
      );
    }
  }
}
