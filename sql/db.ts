/**
 * Opening the database: the home's folders, the pragmas of design.md §4, and the migrations.
 * Every process (serve, worker, run, runner) opens its own connection through openDatabase().
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, chmodSync, readdirSync, readFileSync, statSync, accessSync, constants as fsc } from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config.js';
import { homeFolders } from '../core/config.js';
import { WfError } from '../core/errors.js';
import { packageRoot } from '../core/paths.js';
import { nowIso } from '../core/time.js';

export type DB = Database.Database;

/**
 * mkdir -p that cannot spin: Node's recursive mkdir loops forever on some pseudo file systems (procfs),
 * so walk down from the nearest existing ancestor one level at a time.
 */
function mkdirp(dir: string, mode: number): void {
  const missing: string[] = [];
  let cur = path.resolve(dir);
  while (!existsSync(cur)) {
    missing.unshift(cur);
    const up = path.dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  for (const d of missing) mkdirSync(d, { mode });
}

/** Creates the home's folders (secrets private to the owner). Idempotent. */
export function ensureHome(config: Pick<Config, 'home' | 'dbPath'>): void {
  for (const f of homeFolders(config)) {
    try {
      mkdirp(f.path, f.mode);
      if (f.mode === 0o700) chmodSync(f.path, 0o700);
    } catch (e) {
      throw new WfError('DATABASE_UNAVAILABLE', `cannot create ${f.path}: ${(e as Error).message}`);
    }
  }
  try {
    mkdirp(path.dirname(config.dbPath), 0o755);
  } catch (e) {
    throw new WfError('DATABASE_UNAVAILABLE', `cannot create the database folder ${path.dirname(config.dbPath)}: ${(e as Error).message}`);
  }
}

/** Turns SQLite's open/pragma failures into one line a person can act on. */
function explainOpenError(dbPath: string, e: unknown): WfError {
  const code = (e as { code?: string }).code ?? '';
  const msg = (e as Error).message;
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(msg)) {
    return new WfError('DATABASE_UNAVAILABLE', `${dbPath} is not a SQLite database (corrupt or another kind of file); move it aside or set WFCTL_DB to another path`);
  }
  if (code === 'SQLITE_CORRUPT') {
    return new WfError('DATABASE_UNAVAILABLE', `${dbPath} is corrupt; restore it from a backup or move it aside`);
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_IOERR' || /readonly|unable to open/i.test(msg)) {
    return new WfError('DATABASE_UNAVAILABLE', `cannot open ${dbPath} for writing (${msg}); check that the file and its folder exist and are writable`);
  }
  return new WfError('DATABASE_UNAVAILABLE', `cannot open ${dbPath}: ${msg}`);
}

export interface OpenOptions {
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Create the home folders first (default true). */
  createHome?: boolean;
}

/** Opens (creating if needed) the database with WAL, foreign keys, synchronous NORMAL and a busy timeout. */
export function openDatabase(config: Pick<Config, 'home' | 'dbPath' | 'busyTimeoutMs'>, opts: OpenOptions = {}): DB {
  if (opts.createHome !== false) ensureHome(config);
  const { dbPath } = config;
  try {
    const st = statSync(dbPath, { throwIfNoEntry: false });
    if (st?.isDirectory()) throw new WfError('DATABASE_UNAVAILABLE', `${dbPath} is a folder, not a database file; set WFCTL_DB to a file path`);
    if (st) accessSync(dbPath, fsc.R_OK | fsc.W_OK);
    accessSync(path.dirname(dbPath), fsc.W_OK);
  } catch (e) {
    if (e instanceof WfError) throw e;
    throw new WfError('DATABASE_UNAVAILABLE', `cannot open ${dbPath} for writing (${(e as Error).message}); check the permissions of the file and its folder`);
  }
  let db: DB | undefined;
  try {
    db = new Database(dbPath, { timeout: config.busyTimeoutMs });
    // journal_mode is persistent in the file; setting it reads the header, so a non-database fails here.
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.floor(config.busyTimeoutMs)}`);
    if (opts.migrate !== false) migrate(db);
    return db;
  } catch (e) {
    db?.close();
    if (e instanceof WfError) throw e;
    throw explainOpenError(dbPath, e);
  }
}

/** The pragma values SQLite actually has, read back (health reports these, never constants). */
export function readPragmas(db: DB): { journal_mode: string; foreign_keys: boolean; synchronous: string; busy_timeout: number } {
  const sync = Number(db.pragma('synchronous', { simple: true }));
  return {
    journal_mode: String(db.pragma('journal_mode', { simple: true })),
    foreign_keys: Number(db.pragma('foreign_keys', { simple: true })) === 1,
    synchronous: (['off', 'normal', 'full', 'extra'][sync] ?? String(sync)),
    busy_timeout: Number(db.pragma('busy_timeout', { simple: true })),
  };
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Migration files `NNN-name.sql` in version order. */
export function loadMigrations(dir = path.join(packageRoot(), 'sql', 'migrations')): Migration[] {
  const out: Migration[] = [];
  for (const file of readdirSync(dir)) {
    const m = /^(\d{3})-([\w-]+)\.sql$/.exec(file);
    if (!m) continue;
    out.push({ version: Number(m[1]), name: m[2], sql: readFileSync(path.join(dir, file), 'utf8') });
  }
  out.sort((a, b) => a.version - b.version);
  for (let i = 1; i < out.length; i++) {
    if (out[i].version === out[i - 1].version) throw new Error(`two migrations share version ${out[i].version}`);
  }
  return out;
}

/**
 * Applies every pending migration in one transaction that takes the write lock first (BEGIN IMMEDIATE),
 * re-reading the ledger under the lock, so two processes starting at once never both apply one.
 * Returns the versions applied by this call.
 */
export function migrate(db: DB, migrations: Migration[] = loadMigrations()): number[] {
  const run = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const applied = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    const done: number[] = [];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, nowIso());
      done.push(m.version);
    }
    return done;
  });
  return run.immediate();
}
