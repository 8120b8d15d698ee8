/**
 * Which model provider an agent node talks to. A node names one with `data.provider` (a provider id);
 * otherwise the earliest-created *configured* provider that fits the agent is used, and with none the CLI keeps
 * its own login. Fits: Claude speaks only the Anthropic API (anthropic-compatible); Codex speaks the OpenAI
 * Responses API (openai-compatible, local); Gemini speaks only the Gemini API, so no provider type fits it.
 * The key itself is not read here: runAgent reads `provider-<id>` from the secrets folder at spawn time.
 */
import type { Config } from '../../core/config.js';
import { WfError } from '../../core/errors.js';
import type { AgentName } from '../../core/graph.js';
import type { DB } from '../../sql/db.js';
import { stmt } from '../../sql/stmt.js';
import type { ProviderSettings } from './types.js';

type ProviderType = ProviderSettings['type'];

export function providerFits(agent: AgentName, type: ProviderType): boolean {
  if (agent === 'claude') return type === 'anthropic-compatible';
  if (agent === 'codex') return type === 'openai-compatible' || type === 'local';
  return false;
}

interface Row { id: string; name: string; type: ProviderType; base_url: string | null; status: string }

const settings = (r: Row, config: Pick<Config, 'home'>): ProviderSettings => ({ id: r.id, name: r.name, type: r.type, baseUrl: r.base_url ?? undefined, home: config.home });

/** The provider for an agent: the node's explicit choice (validated) or the first configured one that fits. */
export function resolveProvider(db: DB, config: Pick<Config, 'home'>, agent: AgentName, providerId?: string | null): ProviderSettings | undefined {
  if (providerId) {
    const r = stmt(db, 'SELECT id, name, type, base_url, status FROM model_providers WHERE id = ? OR name = ?').get(providerId, providerId) as Row | undefined;
    if (!r) throw new WfError('PROVIDER_NOT_FOUND', `no model provider '${providerId}'`);
    if (!providerFits(agent, r.type)) throw new WfError('VALIDATION_FAILED', `model provider '${r.name}' (${r.type}) cannot drive ${agent}; ${agent === 'gemini' ? 'gemini only speaks the Gemini API' : agent === 'claude' ? 'claude needs an anthropic-compatible provider' : 'codex needs an openai-compatible or local provider'}`);
    if (!r.base_url) throw new WfError('VALIDATION_FAILED', `model provider '${r.name}' has no base URL`);
    return settings(r, config);
  }
  const rows = stmt(db, "SELECT id, name, type, base_url, status FROM model_providers WHERE status = 'configured' ORDER BY created_at, rowid").all() as Row[];
  const r = rows.find((x) => providerFits(agent, x.type) && x.base_url);
  return r && settings(r, config);
}
