/**
 * Users and their passwords. Passwords are bcrypt hashes (cost 10, the minimum we accept) made with bcryptjs,
 * whose async API works in small slices between event-loop turns, and never inside a write transaction, so
 * the write lock is held for microseconds.
 */
import bcrypt from 'bcryptjs';
import { randomUUID } from 'node:crypto';
import { WfError } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';

export const BCRYPT_COST = 10;
export const PASSWORD_MIN_CHARS = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused rather than silently truncated. */
export const PASSWORD_MAX_BYTES = 72;
export const USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export type Role = 'admin' | 'operator';

/** A user as the API shows it (never the hash). */
export interface PublicUser {
  id: string;
  username: string;
  role: Role;
  created_at: string;
  updated_at: string;
}

interface UserRow extends PublicUser {
  password_hash: string;
}

const COLS = 'id, username, role, created_at, updated_at';

/** Throws VALIDATION_FAILED (422) with a sentence a person can act on. */
export function checkUsername(username: string): void {
  if (!USERNAME_RE.test(username)) {
    throw new WfError('VALIDATION_FAILED', 'username must be 1 to 64 characters: letters, digits and . _ @ - (starting with a letter or digit)');
  }
}

export function checkPassword(password: string): void {
  if ([...password].length < PASSWORD_MIN_CHARS) throw new WfError('VALIDATION_FAILED', `password must be at least ${PASSWORD_MIN_CHARS} characters`);
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) throw new WfError('VALIDATION_FAILED', `password must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt ignores the rest)`);
  if (password.trim().length === 0) throw new WfError('VALIDATION_FAILED', 'password must not be only spaces');
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

let dummyHash: Promise<string> | undefined;

/** Computes the dummy hash ahead of the first login, so even that one takes no longer than the others. */
export function warmDummyHash(): void {
  if (dummyHash) return;
  dummyHash = bcrypt.hash('wfctl-dummy-password-for-timing', BCRYPT_COST);
  dummyHash.catch(() => undefined); // a failure surfaces at the login that awaits it, never as an unhandled rejection
}

/**
 * Checks a password against a user's hash; for an unknown user it checks against a fixed dummy hash of the same
 * cost, so a wrong user name and a wrong password take comparable time and answer the same.
 */
export async function verifyPassword(password: string, passwordHash: string | undefined): Promise<boolean> {
  if (passwordHash === undefined) {
    warmDummyHash();
    await bcrypt.compare(password, await dummyHash!);
    return false;
  }
  try {
    return await bcrypt.compare(password, passwordHash);
  } catch {
    return false;
  }
}

export function countUsers(db: DB): number {
  return db.prepare('SELECT count(*) FROM users').pluck().get() as number;
}

export function listUsers(db: DB): PublicUser[] {
  return db.prepare(`SELECT ${COLS} FROM users ORDER BY created_at, username`).all() as PublicUser[];
}

export function getUser(db: DB, id: string): PublicUser | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE id = ?`).get(id) as PublicUser | undefined;
}

/** The user with its hash, by name (case-insensitive), for login only. */
export function findUserForLogin(db: DB, username: string): UserRow | undefined {
  return db.prepare(`SELECT ${COLS}, password_hash FROM users WHERE username = ?`).get(username) as UserRow | undefined;
}

/**
 * Validates, hashes, then inserts in one immediate transaction. With `onlyIfNone` (bootstrap) the "no user
 * yet" check runs inside that same transaction, so two racing bootstraps cannot both create an admin.
 */
export async function createUser(db: DB, input: { username: string; password: string; role: Role }, opts: { onlyIfNone?: boolean } = {}): Promise<PublicUser> {
  checkUsername(input.username);
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const id = randomUUID();
  const now = nowIso();
  const insert = db.transaction(() => {
    if (opts.onlyIfNone && countUsers(db) > 0) throw new WfError('BOOTSTRAP_DONE', 'wfctl is already set up; sign in, or ask an admin for an account');
    if (db.prepare('SELECT 1 FROM users WHERE username = ?').get(input.username)) {
      throw new WfError('USERNAME_TAKEN', `the user name '${input.username}' is taken (names are case-insensitive)`);
    }
    db.prepare('INSERT INTO users (id, username, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      id, input.username, passwordHash, input.role, now, now,
    );
  });
  insert.immediate();
  return getUser(db, id)!;
}

/** Deletes a user (sessions go by cascade). Refuses yourself and the last admin, checked under the write lock. */
export function deleteUser(db: DB, id: string, actingUserId: string): void {
  const run = db.transaction(() => {
    const user = getUser(db, id);
    if (!user) throw new WfError('USER_NOT_FOUND', `no user with id '${id}'`);
    if (id === actingUserId) throw new WfError('SELF_DELETE', 'you cannot delete your own account; ask another admin');
    if (user.role === 'admin') {
      const admins = db.prepare(`SELECT count(*) FROM users WHERE role = 'admin'`).pluck().get() as number;
      if (admins <= 1) throw new WfError('LAST_ADMIN', 'this is the last admin; create another admin first');
    }
    db.prepare('DELETE FROM users WHERE id = ?').run(id);
  });
  run.immediate();
}
