/**
 * The one error handler: domain errors keep their code and status; Fastify's own (validation, bad JSON)
 * keep theirs; anything else is a 500 whose internals are logged, never sent.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import { isWfError, storageFault } from '../../core/errors.js';

function body(statusCode: number, code: string, message: string, details?: unknown) {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(details !== undefined ? { details } : {}) };
}

export default fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isWfError(err)) {
      if (err.statusCode >= 500) req.log.error({ err }, err.message);
      return reply.code(err.statusCode).send(body(err.statusCode, err.code, err.message, err.details));
    }
    if (err.validation) {
      const where = err.validationContext ?? 'request';
      return reply.code(400).send(body(400, 'BAD_REQUEST', `${where} ${err.message.replace(/^(body|params|querystring|headers)\s*/, '')}`.trim()));
    }
    // Storage faults (issue 9): the database folder read-only or full, an I/O error, or a lock held beyond the
    // busy timeout are the server's state, not a bug: 503 in the error shape with one log line, never a 500.
    const storage = storageFault(err);
    if (storage) {
      req.log.error({ code: (err as { code?: string }).code }, storage);
      return reply.code(503).send(body(503, 'DATABASE_UNAVAILABLE', storage));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(body(status, err.code ?? 'BAD_REQUEST', err.message));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(body(500, 'INTERNAL', 'internal error; the server log has the details'));
  });
}, { name: 'wfctl-errors' });
