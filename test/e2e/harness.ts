/**
 * End-to-end harness: a real server (startServer, in process) over a temporary home with the fake agent CLIs
 * first on PATH, Debian's Chromium driven by playwright-core (never a downloaded browser), and a few API
 * helpers for set-up the test is not about. Screenshots go to test/e2e/screenshots/ (git-ignored PNGs).
 */
/* Browser globals inside page.evaluate callbacks (the test tsconfig has no DOM lib). */
declare const localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Config } from '../../core/config.js';
import { startServer, type RunningServer } from '../../server/server.js';
import { FAKE_BIN, ROOT, testConfig } from '../helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.join(ROOT, 'test', 'e2e', 'screenshots');
export const ADMIN = { username: 'admin', password: 'e2e password 123' };

export interface E2E {
  config: Config;
  server: RunningServer;
  url: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

const quiet = new Writable({ write: (_c, _e, cb) => cb() });

/** Whether the machine can run the suite (a Chromium and a built UI). */
export function e2eAvailable(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM}`;
  if (!existsSync(path.join(ROOT, 'web-components', 'dist', 'index.html'))) return 'the web UI is not built (npm run build)';
  return undefined;
}

export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  if (!process.env.PATH?.startsWith(FAKE_BIN)) process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
  const config = testConfig({}, env);
  const server = await startServer(config, { stdout: quiet });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: server.url, reducedMotion: 'reduce' });
  // Generous: the machine is shared and slow at times; a real failure still fails, only later.
  context.setDefaultTimeout(45_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    config,
    server,
    url: server.url,
    browser,
    context,
    page,
    close: async () => {
      await browser.close().catch(() => undefined);
      await server.close();
      if (errors.length) console.error('browser page errors:\n' + errors.join('\n'));
    },
  };
}

/** A JSON call against the server (set-up and checks outside the UI). */
export async function apiCall<T = any>(e: E2E, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${e.url}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Bootstraps the admin over the API (for suites that are not about sign-in) and signs the page in. */
export async function signedIn(e: E2E): Promise<string> {
  const r = await apiCall<{ token: string; user: unknown }>(e, 'POST', '/api/auth/bootstrap', undefined, ADMIN);
  if (r.status !== 201) throw new Error(`bootstrap failed: ${r.status} ${JSON.stringify(r.body)}`);
  await e.page.goto('/login');
  await e.page.evaluate(({ token, user }) => {
    localStorage.setItem('wfctl.token', token);
    localStorage.setItem('wfctl.user', JSON.stringify(user));
  }, r.body);
  return r.body.token;
}

/** A git repository with one commit under the home's codebases folder (approved by location). */
export function approvedRepo(e: E2E, name = 'sample'): string {
  const dir = path.join(e.config.workspaceRoots[0]!, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'README.md'), '# sample\n');
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', 'add', '-A');
  git('-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', 'commit', '-q', '-m', 'initial');
  return dir;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** A node spec for graphs made over the API. */
export function agentNode(id: string, objective: string, x = 0, y = 0, extra: Record<string, unknown> = {}) {
  return { id, type: 'specialistAgent', position: { x, y }, data: { label: id, objective, runtime: 'direct', sandboxAgent: 'claude', ...extra } };
}

/** Waits until fn() returns a truthy value (polling, for state outside the page). */
export async function until<T>(fn: () => Promise<T> | T, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** a (sleeps briefly, so the run is visibly Running) → gate (noteRequired, approve / reject only) → b. */
export function gatedGraph(sleep = 2, gate: Record<string, unknown> = {}) {
  return {
    nodes: [
      agentNode('a', `Prepare [[fake:sleep=${sleep}]] [[fake:answer=prepared]]`),
      { id: 'gate', type: 'humanApproval', position: { x: 230, y: 0 }, data: { label: 'Release gate', objective: 'A person checks the preparation', allowedActions: ['approve', 'reject'], noteRequired: true, timeoutHours: 24, ...gate } },
      agentNode('b', 'Ship [[fake:answer=shipped]]', 460, 0),
    ],
    edges: [
      { id: 'e1', source: 'a', target: 'gate' },
      { id: 'e2', source: 'gate', target: 'b' },
    ],
  };
}

export async function startRun(ctx: { e: E2E; token: string; repo: string }, workflowId: string): Promise<string> {
  const r = await apiCall(ctx.e, 'POST', '/api/workflow-runs', ctx.token, { workflow_id: workflowId, workspace_path: ctx.repo });
  if (r.status !== 201) throw new Error(`run start failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.run_id;
}

export async function runStatus(ctx: { e: E2E; token: string }, runId: string): Promise<any> {
  return (await apiCall(ctx.e, 'GET', `/api/workflow-runs/${runId}`, ctx.token)).body;
}

