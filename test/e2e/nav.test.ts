/**
 * The web UI end to end, navigation and sign-in: the Templates tab and Use template (copy opened in the
 * builder), removed routes and deep links, sign-out, sign-in, and the return to /login on a 401.
 */
/* Browser globals inside page.evaluate callbacks (the test tsconfig has no DOM lib). */
declare const localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
declare const document: { querySelector(s: string): unknown };
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, apiCall, approvedRepo, e2eAvailable, screenshot, signedIn, startE2E, type E2E } from './harness.js';

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

Ui('builder :: a smart supervisor plans its specialists, marked generated, and the workflow is saved at once', async ({ e, token }) => {
  if (skip) return;
  const { page } = e;
  const repo = approvedRepo(e, 'planned');
  // The fake supervisor answers with this plan (no ']]' inside, which would end the directive).
  const plan = JSON.stringify({ subtasks: [
    { id: 'api', label: 'API', objective: 'Build the API', depends_on: [] },
    { id: 'ui', label: 'UI', objective: 'Build the UI', depends_on: ['api'] },
  ] });
  await page.goto('/workflows/new');
  await page.getByLabel('Workflow name').fill('Planned delivery');
  await page.locator('.palette-item[data-type=smartSupervisor]').click();
  await page.locator('.inspector[data-node=smartSupervisor-1]').waitFor();
  await page.getByLabel('Label').fill('Lead');
  await page.getByLabel('Objective').fill(`Deliver the feature [[fake:answer=${plan}]]`);
  await page.getByLabel('Planning workspace').fill(repo);
  await page.locator('[data-action=plan]').click();
  await page.waitForFunction(() => (document.querySelector('wf-builder') as any)?.cy?.nodes('[generated = "yes"]').length === 2, undefined, { timeout: 30_000 });
  // Saved automatically (spec: the generated workflow is runnable at once).
  await page.waitForURL(/\/workflows\/[^/]+\/edit$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
  const saved = await apiCall(e, 'GET', `/api/workflows/${id}`, token);
  const generated = saved.body.graph.nodes.filter((n: any) => n.data.generatedBy === 'smartSupervisor-1');
  assert.equal(generated.map((n: any) => n.data.label).sort(), ['API', 'UI']);
  assert.ok(saved.body.graph.edges.some((x: any) => x.source === 'smartSupervisor-1' && x.data?.generatedBy === 'smartSupervisor-1'));
  await page.locator('.palette').waitFor();
  await screenshot(page, 'builder-planned');
  // The inspector marks a generated node.
  await page.evaluate((nodeId) => {
    (document.querySelector('wf-builder') as any).cy.$id(nodeId).emit('tap');
  }, generated[0].id);
  await page.locator('.badge-generated').waitFor();
});

Ui('builder :: Tune rewrites a node’s label, role, objective and instructions from the agent’s answer', async ({ e }) => {
  if (skip) return;
  const { page } = e;
  const repo = approvedRepo(e, 'tuned');
  await page.goto('/workflows/new');
  await page.locator('.palette-item[data-type=specialistAgent]').click();
  await page.getByLabel('Label').fill('Draft');
  await page.getByLabel('Objective').fill('Do something');
  await page.getByLabel('Planning workspace').fill(repo);
  const answer = JSON.stringify({ label: 'Tuned label', role: 'Reviewer', objective: 'Review the change and list risks', systemInstructions: 'Be brief' });
  await page.getByLabel('Instruction', { exact: true }).fill(`make it precise [[fake:answer=${answer}]]`);
  await page.locator('[data-action=tune]').click();
  await page.waitForFunction(() => (document.querySelector('#insp-label') as any)?.value === 'Tuned label');
  assert.is(await page.locator('#insp-objective').inputValue(), 'Review the change and list risks');
  assert.is(await page.locator('#insp-role').inputValue(), 'Reviewer');
  assert.is(await page.locator('#insp-systemInstructions').inputValue(), 'Be brief');
});

Ui('settings :: workspaces and providers are added from the forms; the API key is write-only', async ({ e, token }) => {
  if (skip) return;
  const { page } = e;
  const repo = approvedRepo(e, 'registered');
  await page.goto('/settings/workspaces');
  await page.getByLabel('Repository path').fill(repo);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('td.mono', { hasText: repo }).waitFor();
  await page.goto('/settings/providers');
  await page.getByLabel('Name').fill('Local models');
  await page.getByLabel('Type').selectOption('openai-compatible');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
  await page.getByLabel('API key').fill('sk-very-secret-value');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('td', { hasText: 'API key set' }).waitFor();
  assert.not.match(await page.content(), /sk-very-secret-value/);
  const list = await apiCall(e, 'GET', '/api/model-providers', token);
  assert.not.match(JSON.stringify(list.body), /sk-very-secret-value/);
  await page.goto('/settings/users');
  await page.locator('td', { hasText: ADMIN.username }).first().waitFor();
  await screenshot(page, 'settings-users');
});

Ui('settings :: an operator sees that user management is for administrators', async ({ e, token }) => {
  if (skip) return;
  const { page } = e;
  const op = { username: 'oscar', password: 'operator password 1' };
  assert.is((await apiCall(e, 'POST', '/api/users', token, { ...op, role: 'operator' })).status, 201);
  const login = await apiCall(e, 'POST', '/api/auth/login', undefined, op);
  await page.evaluate(({ t, u }) => {
    localStorage.setItem('wfctl.token', t);
    localStorage.setItem('wfctl.user', JSON.stringify(u));
  }, { t: login.body.token, u: login.body.user });
  await page.goto('/settings/users');
  await page.getByText('User management is for administrators only.').waitFor();
  assert.is(await page.locator('form.settings-form').count(), 0);
  // Back to the admin for the remaining cases.
  await page.evaluate((t) => localStorage.setItem('wfctl.token', t), token);
  const me = await apiCall(e, 'GET', '/api/auth/me', token);
  await page.evaluate((u) => localStorage.setItem('wfctl.user', JSON.stringify(u)), me.body.user ?? me.body);
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
