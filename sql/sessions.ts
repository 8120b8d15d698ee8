/**
 * Sessions after Lucia's design: the bearer token is 20 random bytes in base32 (lower case, no padding);
 * only its SHA-256 (hex) is stored, as the session id. Sessions last 30 days and are renewed when used in
 * their second half.
 */
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { createHash, getRandomValues } from 'node:crypto';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { stmt } from './stmt.js';

export const SESSION_MS = 30 * 24 * 3_600_000;

export interface SessionUser {
  id: string;
  username: string;
  role: 'admin' | 'operator';
}

export interface Session {
  id: string;
  user_id: string;
  expires_at: string;
}

export function generateToken(): string {
  const bytes = new Uint8Array(20);
  getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdOf(token: string): string {
  // Native SHA-256 (same hex digest as before): this runs on every authenticated request.
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Creates a session for a user and returns the token (shown once; never stored). */
export function createSession(db: DB, userId: string, meta: { ip?: string; userAgent?: string } = {}, now = Date.now()): { token: string; session: Session } {
  const token = generateToken();
  const session: Session = { id: sessionIdOf(token), user_id: userId, expires_at: nowIso(now + SESSION_MS) };
  stmt(db, `INSERT INTO auth_sessions (id, user_id, expires_at, created_at, last_used_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    session.id, userId, session.expires_at, nowIso(now), nowIso(now), meta.ip ?? null, meta.userAgent?.slice(0, 300) ?? null,
  );
  return { token, session };
}

/** The session and user a token names, or null when unknown or expired (an expired row is deleted). */
export function validateSessionToken(db: DB, token: string, now = Date.now()): { session: Session; user: SessionUser } | null {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const id = sessionIdOf(token);
  const row = stmt(db, `SELECT s.id, s.user_id, s.expires_at, u.username, u.role FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`)
    .get(id) as (Session & { username: string; role: SessionUser['role'] }) | undefined;
  if (!row) return null;
  const expires = Date.parse(row.expires_at);
  if (now >= expires) {
    stmt(db, 'DELETE FROM auth_sessions WHERE id = ?').run(id);
    return null;
  }
  let expiresAt = row.expires_at;
  if (now >= expires - SESSION_MS / 2) {
    expiresAt = nowIso(now + SESSION_MS);
    stmt(db, 'UPDATE auth_sessions SET expires_at = ?, last_used_at = ? WHERE id = ?').run(expiresAt, nowIso(now), id);
  }
  return { session: { id, user_id: row.user_id, expires_at: expiresAt }, user: { id: row.user_id, username: row.username, role: row.role } };
}

export function invalidateSession(db: DB, sessionId: string): void {
  stmt(db, 'DELETE FROM auth_sessions WHERE id = ?').run(sessionId);
}

export function invalidateUserSessions(db: DB, userId: string): void {
  stmt(db, 'DELETE FROM auth_sessions WHERE user_id = ?').run(userId);
}
