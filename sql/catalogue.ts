/**
 * The catalogue: model providers, skills and connectors. Secrets (provider API keys, connector tokens) are
 * files under $WFCTL_HOME/secrets (sql/secrets.ts); the rows keep only whether one is set, and a status derived
 * from the required fields: `configured` when all are present, else `draft`.
 */
import { randomUUID } from 'node:crypto';
import { WfError, type ErrorCode } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { deleteSecret, hasSecret, readSecret, writeSecret } from './secrets.js';

export type ProviderType = 'local' | 'openai-compatible' | 'anthropic-compatible';
export const PROVIDER_TYPES: ProviderType[] = ['local', 'openai-compatible', 'anthropic-compatible'];

export interface Provider {
  id: string;
  name: string;
  type: ProviderType;
  base_url: string | null;
  models: string[];
  has_api_key: boolean;
  status: 'configured' | 'draft';
  created_at: string;
  updated_at: string;
}

export interface Skill {
  id: string;
  name: string;
  description: string;
  compatible_roles: string[];
  prompt_template: string;
  builtin: boolean;
  builtin_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface Connector {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  has_token: boolean;
  status: 'configured' | 'draft';
  created_at: string;
  updated_at: string;
}

export const providerSecret = (id: string) => `provider-${id}`;
export const connectorSecret = (id: string) => `connector-${id}`;

/** base_url for every type; an API key too, except for a local server. */
export function providerStatus(p: { type: ProviderType; base_url: string | null; has_api_key: boolean }): Provider['status'] {
  return p.base_url && (p.type === 'local' || p.has_api_key) ? 'configured' : 'draft';
}

/** A webhook needs config.url; every other type (github, gitlab, slack, custom ones) needs its token. */
export function connectorStatus(c: { type: string; config: Record<string, unknown>; has_token: boolean }): Connector['status'] {
  if (c.type === 'webhook') return typeof c.config.url === 'string' && c.config.url.length > 0 ? 'configured' : 'draft';
  return c.has_token ? 'configured' : 'draft';
}

const uniqueViolation = (e: unknown) => (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

function notFound(code: ErrorCode, what: string, id: string): WfError {
  return new WfError(code, `no ${what} with id '${id}'`);
}

// ---- model providers -------------------------------------------------------------------------------------

type ProviderRow = Omit<Provider, 'models' | 'has_api_key'> & { models: string; has_api_key: number };
const toProvider = (r: ProviderRow): Provider => ({ ...r, models: JSON.parse(r.models) as string[], has_api_key: r.has_api_key === 1 });

export function listProviders(db: DB): Provider[] {
  return (db.prepare('SELECT * FROM model_providers ORDER BY name COLLATE NOCASE').all() as ProviderRow[]).map(toProvider);
}

export function getProvider(db: DB, id: string): Provider | undefined {
  const r = db.prepare('SELECT * FROM model_providers WHERE id = ?').get(id) as ProviderRow | undefined;
  return r && toProvider(r);
}

export interface ProviderInput {
  name?: string;
  type?: ProviderType;
  base_url?: string | null;
  models?: string[];
  /** A string sets the key, null removes it, undefined leaves it. */
  api_key?: string | null;
}

/**
 * Creates (id undefined) or patches a provider. The secret file is written before the row commits and removed
 * again if the row fails, so a failed request leaves neither a row nor a key behind.
 */
export function saveProvider(db: DB, home: string, id: string | undefined, input: ProviderInput): Provider {
  const existing = id === undefined ? undefined : getProvider(db, id);
  if (id !== undefined && !existing) throw notFound('PROVIDER_NOT_FOUND', 'model provider', id);
  const pid = id ?? randomUUID();
  const secret = providerSecret(pid);
  const merged = {
    name: input.name ?? existing?.name ?? '',
    type: input.type ?? existing!.type,
    base_url: input.base_url !== undefined ? input.base_url : existing?.base_url ?? null,
    models: input.models ?? existing?.models ?? [],
    has_api_key: input.api_key === undefined ? hasSecret(home, secret) : input.api_key !== null,
  };
  const status = providerStatus(merged);
  const now = nowIso();
  saveWithSecret(db, home, secret, input.api_key, `a model provider named '${merged.name}' exists; choose another name`, () => {
    if (existing) {
      db.prepare('UPDATE model_providers SET name = ?, type = ?, base_url = ?, models = ?, has_api_key = ?, status = ?, updated_at = ? WHERE id = ?').run(
        merged.name, merged.type, merged.base_url, JSON.stringify(merged.models), merged.has_api_key ? 1 : 0, status, now, pid,
      );
    } else {
      db.prepare('INSERT INTO model_providers (id, name, type, base_url, models, has_api_key, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
        pid, merged.name, merged.type, merged.base_url, JSON.stringify(merged.models), merged.has_api_key ? 1 : 0, status, now, now,
      );
    }
  });
  return getProvider(db, pid)!;
}

export function deleteProvider(db: DB, home: string, id: string): void {
  const changes = db.prepare('DELETE FROM model_providers WHERE id = ?').run(id).changes;
  if (!changes) throw notFound('PROVIDER_NOT_FOUND', 'model provider', id);
  deleteSecret(home, providerSecret(id));
}

// ---- secrets rollback -------------------------------------------------------------------------------------


/**
 * Saves a row together with its write-only secret (`sent`: a string sets it, null removes it, undefined leaves
 * it). The secret file is written before the row commits and put back as it was if the row fails, so a failed
 * request leaves neither a row nor a changed secret; a removal happens only once the row has committed.
 * A unique-name violation becomes NAME_TAKEN with `nameTaken` as its message.
 */
function saveWithSecret(db: DB, home: string, secret: string, sent: string | null | undefined, nameTaken: string, writeRow: () => void): void {
  const previous = typeof sent === 'string' ? readSecret(home, secret) : undefined;
  if (typeof sent === 'string') writeSecret(home, secret, sent);
  try {
    db.transaction(writeRow).immediate();
  } catch (e) {
    if (typeof sent === 'string') {
      if (previous === undefined) deleteSecret(home, secret);
      else writeSecret(home, secret, previous);
    }
    if (uniqueViolation(e)) throw new WfError('NAME_TAKEN', nameTaken);
    throw e;
  }
  if (sent === null) deleteSecret(home, secret);
}

// ---- skills -----------------------------------------------------------------------------------------------

type SkillRow = Omit<Skill, 'compatible_roles' | 'builtin'> & { compatible_roles: string };
const toSkill = (r: SkillRow): Skill => ({ ...r, compatible_roles: JSON.parse(r.compatible_roles) as string[], builtin: r.builtin_key !== null });

export function listSkills(db: DB): Skill[] {
  return (db.prepare('SELECT * FROM skills ORDER BY name COLLATE NOCASE, id').all() as SkillRow[]).map(toSkill);
}

export function getSkill(db: DB, id: string): Skill | undefined {
  const r = db.prepare('SELECT * FROM skills WHERE id = ?').get(id) as SkillRow | undefined;
  return r && toSkill(r);
}

export function requireSkill(db: DB, id: string): Skill {
  const s = getSkill(db, id);
  if (!s) throw notFound('SKILL_NOT_FOUND', 'skill', id);
  return s;
}

export interface SkillInput {
  name?: string;
  description?: string;
  compatible_roles?: string[];
  prompt_template?: string;
}

export function insertSkill(db: DB, input: Required<Pick<SkillInput, 'name' | 'prompt_template'>> & SkillInput): Skill {
  const id = randomUUID();
  const now = nowIso();
  db.prepare('INSERT INTO skills (id, name, description, compatible_roles, prompt_template, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id, input.name, input.description ?? '', JSON.stringify(input.compatible_roles ?? []), input.prompt_template, now, now,
  );
  return getSkill(db, id)!;
}

/** Built-ins are edited like any skill; the edit persists across restarts (seeding never overwrites). */
export function updateSkill(db: DB, id: string, patch: SkillInput): Skill {
  const s = requireSkill(db, id);
  db.prepare('UPDATE skills SET name = ?, description = ?, compatible_roles = ?, prompt_template = ?, updated_at = ? WHERE id = ?').run(
    patch.name ?? s.name, patch.description ?? s.description, JSON.stringify(patch.compatible_roles ?? s.compatible_roles), patch.prompt_template ?? s.prompt_template, nowIso(), id,
  );
  return getSkill(db, id)!;
}

/** A deleted built-in comes back at the next start (spec §1.9). */
export function deleteSkill(db: DB, id: string): void {
  if (!db.prepare('DELETE FROM skills WHERE id = ?').run(id).changes) throw notFound('SKILL_NOT_FOUND', 'skill', id);
}

// ---- connectors -------------------------------------------------------------------------------------------

type ConnectorRow = Omit<Connector, 'config' | 'has_token'> & { config: string; has_secret: number };
const toConnector = (r: ConnectorRow): Connector => {
  const { has_secret, config, ...rest } = r;
  return { ...rest, config: JSON.parse(config) as Record<string, unknown>, has_token: has_secret === 1 };
};

export function listConnectors(db: DB): Connector[] {
  return (db.prepare('SELECT * FROM connectors ORDER BY name COLLATE NOCASE').all() as ConnectorRow[]).map(toConnector);
}

export function getConnector(db: DB, id: string): Connector | undefined {
  const r = db.prepare('SELECT * FROM connectors WHERE id = ?').get(id) as ConnectorRow | undefined;
  return r && toConnector(r);
}

export interface ConnectorInput {
  name?: string;
  type?: string;
  config?: Record<string, unknown>;
  /** A string sets the token, null removes it, undefined leaves it. */
  token?: string | null;
}

export function saveConnector(db: DB, home: string, id: string | undefined, input: ConnectorInput): Connector {
  const existing = id === undefined ? undefined : getConnector(db, id);
  if (id !== undefined && !existing) throw notFound('CONNECTOR_NOT_FOUND', 'connector', id);
  const cid = id ?? randomUUID();
  const secret = connectorSecret(cid);
  const merged = {
    name: input.name ?? existing?.name ?? '',
    type: input.type ?? existing!.type,
    config: input.config ?? existing?.config ?? {},
    has_token: input.token === undefined ? hasSecret(home, secret) : input.token !== null,
  };
  const status = connectorStatus(merged);
  const now = nowIso();
  saveWithSecret(db, home, secret, input.token, `a connector named '${merged.name}' exists; choose another name`, () => {
    if (existing) {
      db.prepare('UPDATE connectors SET name = ?, type = ?, config = ?, has_secret = ?, status = ?, updated_at = ? WHERE id = ?').run(
        merged.name, merged.type, JSON.stringify(merged.config), merged.has_token ? 1 : 0, status, now, cid,
      );
    } else {
      db.prepare('INSERT INTO connectors (id, name, type, config, has_secret, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
        cid, merged.name, merged.type, JSON.stringify(merged.config), merged.has_token ? 1 : 0, status, now, now,
      );
    }
  });
  return getConnector(db, cid)!;
}

export function deleteConnector(db: DB, home: string, id: string): void {
  if (!db.prepare('DELETE FROM connectors WHERE id = ?').run(id).changes) throw notFound('CONNECTOR_NOT_FOUND', 'connector', id);
  deleteSecret(home, connectorSecret(id));
}
