/**
 * Secrets (provider API keys, connector tokens, the runner's shared secret) live in files under
 * $WFCTL_HOME/secrets/ (folder 0700, files 0600), never in the database, API responses or logs.
 * Names are `provider-<id>`, `connector-<id>`, `runner`.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function secretPath(home: string, name: string): string {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(name) || name.startsWith('.')) throw new Error(`invalid secret name '${name}'`);
  return path.join(home, 'secrets', name);
}

/** Writes a secret atomically (temp file + rename), readable by the owner only. */
export function writeSecret(home: string, name: string, value: string): void {
  const file = secretPath(home, name);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, value, { mode: 0o600 });
  renameSync(tmp, file);
}

export function readSecret(home: string, name: string): string | undefined {
  const file = secretPath(home, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

export function hasSecret(home: string, name: string): boolean {
  return existsSync(secretPath(home, name));
}

export function deleteSecret(home: string, name: string): void {
  rmSync(secretPath(home, name), { force: true });
}
