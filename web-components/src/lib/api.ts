/**
 * The HTTP client of the UI: JSON in and out, the bearer token on every call, errors as ApiError carrying the
 * server's `{ statusCode, code, error, message, details? }`, and a 401 handed to onUnauthorized (the shell
 * clears the session and goes to /login). fetch is injected so the client is testable under Node.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  fetch: typeof fetch;
  token: () => string | null;
  onUnauthorized?: (err: ApiError) => void;
  base?: string;
}

export class Api {
  constructor(private readonly opts: ApiOptions) {}

  /** Performs a request; returns the parsed JSON body (undefined for 204). */
  async request<T = unknown>(method: string, path: string, body?: unknown, init: { signal?: AbortSignal } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = this.opts.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.opts.fetch(`${this.opts.base ?? ''}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: init.signal,
      });
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      throw new ApiError(0, 'NETWORK', 'The server cannot be reached. Is `wfctl serve` running?');
    }
    const text = await res.text();
    let data: unknown = undefined;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
    }
    if (!res.ok) {
      const b = (data ?? {}) as { code?: string; message?: string; details?: unknown };
      const err = new ApiError(res.status, b.code ?? `HTTP_${res.status}`, b.message ?? `${method} ${path} failed with HTTP ${res.status}`, b.details);
      if (res.status === 401 && this.opts.onUnauthorized) this.opts.onUnauthorized(err);
      throw err;
    }
    return data as T;
  }

  get<T = unknown>(path: string, init?: { signal?: AbortSignal }): Promise<T> {
    return this.request<T>('GET', path, undefined, init);
  }
  post<T = unknown>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>('POST', path, body);
  }
  put<T = unknown>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }
  patch<T = unknown>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }
  del<T = unknown>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }
}

/** Path segment encoding for ids and names. */
export const seg = (v: string): string => encodeURIComponent(v);

/** A readable message for any thrown value. */
export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
