/**
 * The web UI: serves web-components/dist (built by `npm run build`, never committed) and answers every other
 * non-/api GET path with the app shell (index.html) so deep links such as /workflow-runs/{id} work (design.md
 * §11). /api paths that reach the wildcard stay JSON 404s. With no build present the UI answers a 503 page
 * that says how to build it, while the API keeps working. These routes are public: the shell holds no data.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { packageRoot } from '../../core/paths.js';

export interface UiOptions {
  /** Folder holding index.html and the bundle; default <package>/web-components/dist. */
  root?: string;
}

/** Where the built UI lives. */
export function uiRoot(): string {
  return path.join(packageRoot(), 'web-components', 'dist');
}

const MISSING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wfctl: web UI not built</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:640px;margin:80px auto;padding:0 24px;color:#0f172a}code{background:#f1f5f9;padding:2px 6px;border-radius:4px}</style></head>
<body><h1>The web UI is not built</h1><p>The API is running, but <code>web-components/dist</code> is missing.
Run <code>npm run build</code> in the wfctl folder, then reload this page.</p></body></html>`;

function apiNotFound(req: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: `no route ${req.method} ${req.url.split('?')[0]}` });
}

export default async function uiRoutes(app: FastifyInstance, opts: UiOptions = {}): Promise<void> {
  const root = path.resolve(opts.root ?? uiRoot());
  const built = () => existsSync(path.join(root, 'index.html'));
  // serve:false: only reply.sendFile, which refuses paths outside root; the routes below decide what to send.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false, etag: true, lastModified: true });

  const shell = (reply: FastifyReply) => {
    if (!built()) return reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(MISSING_PAGE);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };

  app.get('/', { config: { public: true } }, async (_req, reply) => shell(reply));
  app.get('/*', { config: { public: true } }, async (req, reply) => {
    let pathname = req.url.split('?')[0] ?? '/';
    try {
      pathname = decodeURIComponent(pathname);
    } catch {
      /* a malformed escape is just not a file: fall through to the shell */
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) return apiNotFound(req, reply);
    const rel = pathname.replace(/^\/+/, '');
    // A real file of the bundle (app.js, app.css, source maps); anything else is a client route.
    if (rel && !rel.split('/').includes('..')) {
      const file = path.join(root, rel);
      if (file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile()) {
        return reply.header('cache-control', 'no-cache').sendFile(rel);
      }
    }
    return shell(reply);
  });
}
