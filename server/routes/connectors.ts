/**
 * Connectors (design.md §9 catalogue): a type, a JSON configuration and a write-only token stored as the
 * secret `connector-<id>` (answered only as `has_token`). Secrets belong in `token`, never in `config`, which is
 * returned as is: config keys that look like secrets are refused.
 */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import { deleteConnector, listConnectors, saveConnector, type ConnectorInput } from '../../sql/catalogue.js';
import { checkHttpUrl } from './providers.js';
import { idParams, noQuery } from '../schemas.js';

const props = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  // Known types: github, gitlab, slack, webhook; others are accepted as lower-case identifiers.
  type: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,39}$' },
  config: { type: 'object' },
  token: { type: ['string', 'null'], maxLength: 10_000 },
} as const;

const MAX_CONFIG_BYTES = 64 * 1024;
const SECRET_KEY = /(^|_|-)(token|secret|password|api_?key|private_?key)$/i;

function check(b: ConnectorInput): ConnectorInput {
  if (b.name !== undefined && !b.name.trim()) throw new WfError('VALIDATION_FAILED', 'name must not be blank');
  if (b.token === '') throw new WfError('VALIDATION_FAILED', 'token must not be empty; send null to remove the token');
  if (b.config !== undefined) {
    if (JSON.stringify(b.config).length > MAX_CONFIG_BYTES) throw new WfError('VALIDATION_FAILED', `config must be at most ${MAX_CONFIG_BYTES} bytes of JSON`);
    const secretKey = Object.keys(b.config).find((k) => SECRET_KEY.test(k));
    if (secretKey) throw new WfError('VALIDATION_FAILED', `config.${secretKey} looks like a secret; send it as "token", which is stored privately and never returned`);
    if (b.config.url !== undefined) {
      if (typeof b.config.url !== 'string') throw new WfError('VALIDATION_FAILED', 'config.url must be a string');
      checkHttpUrl('config.url', b.config.url);
    }
  }
  return { ...b, name: b.name?.trim() };
}

export default async function connectorRoutes(app: FastifyInstance) {
  const { db, config } = app.services;

  app.get('/api/connectors', { schema: { querystring: noQuery } }, async () => listConnectors(db));

  app.post<{ Body: ConnectorInput }>('/api/connectors', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['name', 'type'], properties: props } },
  }, async (req, reply) => {
    const c = saveConnector(db, config.home, undefined, check(req.body));
    reply.code(201);
    return c;
  });

  app.patch<{ Params: { id: string }; Body: ConnectorInput }>('/api/connectors/:id', {
    schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: props } },
  }, async (req) => saveConnector(db, config.home, req.params.id, check(req.body)));

  app.delete<{ Params: { id: string } }>('/api/connectors/:id', { schema: { params: idParams } }, async (req, reply) => {
    deleteConnector(db, config.home, req.params.id);
    reply.code(204);
  });
}
