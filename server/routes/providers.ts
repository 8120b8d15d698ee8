/**
 * Model providers (design.md §9 catalogue). The API key is write-only: stored as the secret `provider-<id>`,
 * answered only as `has_api_key`. Send `api_key: null` to remove a key.
 */
import type { FastifyInstance } from 'fastify';
import { WfError } from '../../core/errors.js';
import { deleteProvider, listProviders, PROVIDER_TYPES, saveProvider, type ProviderInput } from '../../sql/catalogue.js';
import { idParams, noQuery } from '../schemas.js';

const props = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  type: { type: 'string', enum: PROVIDER_TYPES },
  base_url: { type: ['string', 'null'], maxLength: 2000 },
  models: { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 200 } },
  api_key: { type: ['string', 'null'], maxLength: 10_000 },
} as const;

/** Throws VALIDATION_FAILED unless the value is an absolute http(s) URL. */
export function checkHttpUrl(field: string, value: string): void {
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new WfError('VALIDATION_FAILED', `${field} must be an http(s) URL such as http://localhost:11434/v1`);
}

function check(b: ProviderInput): ProviderInput {
  if (b.name !== undefined && !b.name.trim()) throw new WfError('VALIDATION_FAILED', 'name must not be blank');
  if (typeof b.base_url === 'string' && b.base_url !== '') checkHttpUrl('base_url', b.base_url);
  if (b.api_key === '') throw new WfError('VALIDATION_FAILED', 'api_key must not be empty; send null to remove the key');
  return { ...b, name: b.name?.trim(), base_url: b.base_url === '' ? null : b.base_url };
}

export default async function providerRoutes(app: FastifyInstance) {
  const { db, config } = app.services;

  app.get('/api/model-providers', { schema: { querystring: noQuery } }, async () => listProviders(db));

  app.post<{ Body: ProviderInput }>('/api/model-providers', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['name', 'type'], properties: props } },
  }, async (req, reply) => {
    const p = saveProvider(db, config.home, undefined, check(req.body));
    reply.code(201);
    return p;
  });

  app.patch<{ Params: { id: string }; Body: ProviderInput }>('/api/model-providers/:id', {
    schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: props } },
  }, async (req) => saveProvider(db, config.home, req.params.id, check(req.body)));

  app.delete<{ Params: { id: string } }>('/api/model-providers/:id', { schema: { params: idParams } }, async (req, reply) => {
    deleteProvider(db, config.home, req.params.id);
    reply.code(204);
  });
}
