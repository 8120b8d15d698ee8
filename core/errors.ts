/**
 * Domain errors, defined once. Code throws `new WfError(code, message)`; the server's single error handler
 * maps the code to its HTTP status, the CLI maps it to an exit code. Add a code here before using it.
 */
export const ERROR_CATALOGUE = {
  // 400: malformed input
  BAD_REQUEST: 400,
  // 401 / 403: authentication and role
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  // 404: unknown ids
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  WORKFLOW_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  APPROVAL_NOT_FOUND: 404,
  SKILL_NOT_FOUND: 404,
  PROVIDER_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  // 409: state conflicts
  CONFLICT: 409,
  BOOTSTRAP_DONE: 409,
  USERNAME_TAKEN: 409,
  NAME_TAKEN: 409,
  RUN_ACTIVE: 409,
  RUN_NOT_RESUMABLE: 409,
  RUN_NOT_CANCELLABLE: 409,
  APPROVAL_NOT_PENDING: 409,
  APPROVAL_EXPIRED: 409,
  LAST_ADMIN: 409,
  SELF_DELETE: 409,
  // 422: semantic validation
  VALIDATION_FAILED: 422,
  GRAPH_INVALID: 422,
  PLAN_INVALID: 422,
  NOTE_REQUIRED: 422,
  ACTION_NOT_ALLOWED: 422,
  WORKSPACE_NOT_APPROVED: 422,
  // 429: rate limits
  RATE_LIMITED: 429,
  // 5xx / process-level
  CONFIG_INVALID: 500,
  DATABASE_UNAVAILABLE: 503,
  SANDBOX_UNAVAILABLE: 503,
  AGENT_FAILED: 502,
  AGENT_NOT_FOUND: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class WfError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  /** Structured detail a client can act on (e.g. which node of a graph is wrong). */
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'WfError';
    this.code = code;
    this.statusCode = ERROR_CATALOGUE[code];
    this.details = details;
  }
}

export function isWfError(e: unknown): e is WfError {
  return e instanceof WfError;
}

/** An error as plain data, so it can cross a worker-thread boundary and be rebuilt (see fromErrorData). */
export interface ErrorData {
  name: string;
  code?: string;
  message: string;
  retryable?: boolean;
  details?: unknown;
}

export function toErrorData(e: unknown, retryable = false): ErrorData {
  if (e instanceof WfError) return { name: e.name, code: e.code, message: e.message, retryable, details: e.details };
  if (e instanceof Error) return { name: e.name, code: (e as { code?: string }).code, message: e.message, retryable };
  return { name: 'Error', message: String(e), retryable };
}

export function fromErrorData(d: ErrorData): Error {
  if (d.code && d.code in ERROR_CATALOGUE) return new WfError(d.code as ErrorCode, d.message, d.details);
  const e = new Error(d.message);
  e.name = d.name;
  // Keep a library code (SQLITE_IOERR_WRITE …) so storage faults are still recognised (storageFault).
  if (d.code) (e as Error & { code?: string }).code = d.code;
  return e;
}

/**
 * A one-line explanation when `err` is a SQLite storage fault (database folder read-only, disk full, I/O error,
 * lock held beyond the busy timeout), else undefined. Such errors are the server's state, not a bug: the API
 * answers 503 DATABASE_UNAVAILABLE and the scheduler retries the job instead of failing the run (issue 9).
 */
export function storageFault(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  const what = (err as Error).message;
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) {
    return `the database cannot be written (${what}); check that its folder is writable, then retry`;
  }
  if (code === 'SQLITE_FULL') return `the database cannot be written: the disk is full (${what}); free space, then retry`;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return `the database is busy (${what}); retry in a moment`;
  return undefined;
}
