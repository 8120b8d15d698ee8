/**
 * The web UI end to end, navigation and sign-in: the Templates tab and Use template (copy opened in the
 * builder), removed routes and deep links, sign-out, sign-in, and the return to /login on a 401.
 */
/* Browser globals inside page.evaluate callbacks (the test tsconfig has no DOM lib). */
declare const localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, apiCall, e2eAvailable, signedIn, startE2E, type E2E } from './harness.js';

const skip = e2eAvailable();
const Ui = suite<{ e: E2E; token: string }>('e2e/nav');

Ui.before(async (ctx) => {
  if (skip) return;
  ctx.e = await startE2E();
  ctx.token = await signedIn(ctx.e);
});
Ui.after(async (ctx) => {
  await ctx.e?.close();
});

Ui('workflows :: the Templates tab lists the seeded templates; Use template copies one and opens the builder', async ({ e, token }) => {
  if (skip) return console.log(`skipped: ${skip}`);
  const { page } = e;
  await page.goto('/');
  await page.getByRole('tab', { name: 'Templates' }).click();
  await page.locator('tr.workflow-row').first().waitFor();
  const rows = await page.locator('tr.workflow-row').count();
  const api = await apiCall(e, 'GET', '/api/workflows?kind=template', token);
  assert.is(rows, api.body.length);
  assert.ok(rows > 0, 'seeded templates shown');
  assert.is(await page.getByRole('button', { name: 'Use template' }).count(), rows);
  // Use template: a new user workflow, opened in the builder.
  const first = (await page.locator('tr.workflow-row').first().getAttribute('data-id'))!;
  await page.locator(`tr.workflow-row[data-id="${first}"]`).getByRole('button', { name: 'Use template' }).click();
  await page.waitForURL(/\/workflows\/[^/]+\/edit$/);
  const copyId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
  assert.is.not(copyId, first);
  const copy = await apiCall(e, 'GET', `/api/workflows/${copyId}`, token);
  assert.is(copy.body.kind, 'user');
  const template = await apiCall(e, 'GET', `/api/workflows/${first}`, token);
  assert.equal(copy.body.graph.nodes.map((n: any) => n.id), template.body.graph.nodes.map((n: any) => n.id));
  await page.locator('.inspector-empty').waitFor();
  assert.is(await page.$eval('wf-builder', (el) => (el as any).cy.nodes().length), template.body.graph.nodes.length);
});

Ui('routes :: /runs and /approvals show the not-found view; deep links load the app', async ({ e }) => {
  if (skip) return;
  const { page } = e;
  for (const p of ['/runs', '/approvals']) {
    await page.goto(p);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  }
  await page.goto('/settings/workspaces');
  await page.getByRole('heading', { name: 'Approved workspaces' }).waitFor();
});

Ui('signin :: sign out returns to /login; a rejected token also does', async ({ e }) => {
  if (skip) return;
  const { page } = e;
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.is(await page.evaluate(() => localStorage.getItem('wfctl.token')), null);
  // Sign in again through the form.
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await page.locator('tr.workflow-row').first().waitFor();
  // A token the server no longer knows: the first API call answers 401 and the app returns to /login.
  await page.evaluate(() => localStorage.setItem('wfctl.token', 'not-a-valid-token'));
  await page.goto('/');
  await page.waitForURL('**/login');
  assert.is(await page.evaluate(() => localStorage.getItem('wfctl.token')), null);
});

Ui.run();
