/**
 * The web UI end to end, the main path: first-run bootstrap, building a three-node workflow with the palette
 * (required-field messages, connections, lane colours by depth), saving, the API's 422 shown on the nodes,
 * running it from its row to completion on the run page, and the row's inline run history.
 */
/* Browser globals inside page.evaluate callbacks (the test tsconfig has no DOM lib). */
declare const localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
declare const document: { querySelector(s: string): unknown };
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, apiCall, approvedRepo, e2eAvailable, screenshot, startE2E, type E2E } from './harness.js';

const skip = e2eAvailable();
const Ui = suite<{ e: E2E; token: string; workflowId: string; runId: string }>('e2e/ui');

Ui.before(async (ctx) => {
  if (skip) return;
  ctx.e = await startE2E();
});
Ui.after(async (ctx) => {
  await ctx.e?.close();
});

/** Lane colour, status and position of every node on the page's cytoscape instance. */
async function cyNodes(e: E2E, selector: string) {
  return e.page.$eval(selector, (el) => {
    const cy = (el as unknown as { cy: any }).cy;
    return cy.nodes().map((n: any) => ({ id: n.id(), lane: n.data('lane'), depth: n.data('depth'), status: n.data('status'), border: n.style('border-color'), x: n.renderedPosition().x, y: n.renderedPosition().y }));
  });
}

/** Taps a builder node the way a click does (the handler only needs the event); returns nothing serialisable. */
async function tapNode(e: E2E, id: string): Promise<void> {
  await e.page.evaluate((nodeId) => {
    (document.querySelector('wf-builder') as any).cy.$id(nodeId).emit('tap');
  }, id);
}

Ui('signin :: the first visit shows the bootstrap form, which creates the admin and opens Workflows', async ({ e }) => {
  if (skip) return console.log(`skipped: ${skip}`);
  const { page } = e;
  await page.goto('/');
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Create the admin account' }).waitFor();
  await screenshot(page, 'login-bootstrap');
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Repeat password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create admin and sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await page.getByRole('tab', { name: 'My Workflows' }).waitFor();
  const token = await page.evaluate(() => localStorage.getItem('wfctl.token'));
  assert.ok(token, 'token stored');
  const me = await apiCall(e, 'GET', '/api/auth/me', token!);
  assert.is(me.status, 200);
  assert.is(me.body.username ?? me.body.user?.username, ADMIN.username);
  const status = await apiCall(e, 'GET', '/api/auth/status');
  assert.is(status.body.bootstrapped, true);
});

Ui('builder :: three nodes from the palette, validation messages, connections, lane colours, save', async (ctx) => {
  if (skip) return;
  const { e } = ctx;
  const { page } = e;
  ctx.token = (await page.evaluate(() => localStorage.getItem('wfctl.token')))!;
  await page.getByText('No workflows yet.').waitFor();
  await screenshot(page, 'workflows-empty');
  await page.getByRole('link', { name: 'New workflow', exact: true }).click();
  await page.waitForURL('**/workflows/new');
  for (const group of ['Agents', 'Control Flow', 'Memory', 'Notifications']) await page.getByRole('heading', { name: group, exact: true }).waitFor();

  // Drag the first node onto the canvas (HTML5 drag and drop), add two more from the keyboard.
  const canvas = page.locator('.canvas');
  await page.locator('.palette-item[data-type=specialistAgent]').dragTo(canvas, { targetPosition: { x: 200, y: 300 } });
  await page.locator('.inspector[data-node=specialistAgent-1]').waitFor();
  // A fresh node says what is missing.
  assert.is(await page.locator('.field-error[data-field=label]').textContent(), 'Label is required');
  assert.is(await page.locator('.field-error[data-field=objective]').textContent(), 'Objective is required');
  await page.getByLabel('Label').fill('Plan');
  await page.getByLabel('Objective').fill('Write the plan [[fake:answer=plan ready]]');
  assert.is(await page.locator('.field-error[data-field=label]').count(), 0);
  assert.is(await page.locator('.field-error[data-field=objective]').count(), 0);

  await page.locator('.palette-item[data-type=specialistAgent]').focus();
  await page.keyboard.press('Enter');
  await page.locator('.inspector[data-node=specialistAgent-2]').waitFor();
  await page.getByLabel('Label').fill('Build');
  await page.getByLabel('Objective').fill('Build it [[fake:answer=built]]');
  await page.locator('.palette-item[data-type=reportWriter]').click();
  await page.locator('.inspector[data-node=reportWriter-1]').waitFor();
  await page.getByLabel('Label').fill('Report');
  await page.getByLabel('Objective').fill('Summarise [[fake:answer=report written]]');
  // Inspector: MCP tools read-only, models of the selected agent, skills picker.
  await page.getByText('MCP tools').waitFor();
  assert.ok(await page.locator('#insp-model').count());
  assert.ok(await page.locator('.skills-picker').count());

  // Connect Plan → Build → Report through the inspector.
  await tapNode(e, 'specialistAgent-1');
  await page.locator('.inspector[data-node=specialistAgent-1]').waitFor();
  await page.locator('#insp-connect').selectOption('specialistAgent-2');
  await page.locator('[data-action=connect]').click();
  await tapNode(e, 'specialistAgent-2');
  await page.locator('.inspector[data-node=specialistAgent-2]').waitFor();
  await page.locator('#insp-connect').selectOption('reportWriter-1');
  await page.locator('[data-action=connect]').click();

  // Lane colours: depth 0, 1, 2 → palette[0], [1], [2].
  const nodes = await cyNodes(e, 'wf-builder');
  const lane = Object.fromEntries(nodes.map((n: any) => [n.id, n.lane]));
  assert.equal(lane, { 'specialistAgent-1': '#7c3aed', 'specialistAgent-2': '#2563eb', 'reportWriter-1': '#0891b2' });

  await page.getByLabel('Workflow name').fill('E2E delivery');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/\/workflows\/[^/]+\/edit$/);
  ctx.workflowId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
  const saved = await apiCall(e, 'GET', `/api/workflows/${ctx.workflowId}`, ctx.token);
  assert.is(saved.status, 200);
  assert.is(saved.body.name, 'E2E delivery');
  assert.equal(saved.body.graph.nodes.map((n: any) => [n.id, n.data.label]), [['specialistAgent-1', 'Plan'], ['specialistAgent-2', 'Build'], ['reportWriter-1', 'Report']]);
  assert.equal(saved.body.graph.edges.map((x: any) => [x.source, x.target]), [['specialistAgent-1', 'specialistAgent-2'], ['specialistAgent-2', 'reportWriter-1']]);
  await screenshot(page, 'builder');
});

Ui('builder :: the API’s 422 problems are shown on the offending node; fixing and saving clears them', async ({ e, workflowId, token }) => {
  if (skip) return;
  const { page } = e;
  // A cycle: Report → Plan.
  await tapNode(e, 'reportWriter-1');
  await page.locator('#insp-connect').selectOption('specialistAgent-1');
  await page.locator('[data-action=connect]').click();
  await page.getByRole('button', { name: 'Save' }).click();
  const banner = page.locator('.banner-error');
  await banner.waitFor();
  assert.match((await banner.textContent())!, /cycle/);
  const invalid = await page.$eval('wf-builder', (el) => (el as any).cy.nodes('[invalid = "yes"]').map((n: any) => n.id()));
  assert.ok(invalid.length >= 1, 'the node named by the 422 is marked');
  const stillOld = await apiCall(e, 'GET', `/api/workflows/${workflowId}`, token);
  assert.is(stillOld.body.graph.edges.length, 2, 'nothing saved');
  await screenshot(page, 'builder-422');
  // Remove the edge again from Report's inspector and save.
  await tapNode(e, 'reportWriter-1');
  await page.getByRole('button', { name: /Remove the edge to Plan/ }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.banner-error').waitFor({ state: 'detached' });
  assert.is((await apiCall(e, 'GET', `/api/workflows/${workflowId}`, token)).body.graph.edges.length, 2);
});

Ui('run :: the saved workflow runs from its row (workspace + read-only asked) and completes on the run page', async (ctx) => {
  if (skip) return;
  const { e, workflowId, token } = ctx;
  const { page } = e;
  const repo = approvedRepo(e, 'delivery');
  await page.goto('/');
  const row = page.locator(`tr.workflow-row[data-id="${workflowId}"]`);
  await row.locator('[data-action=run]').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Workspace').fill(repo);
  assert.ok(await dialog.getByLabel(/Read-only/).isChecked(), 'read-only is the default');
  await dialog.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/workflow-runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
  await page.locator('.run-page[data-status=completed]').waitFor({ timeout: 60_000 });
  const run = await apiCall(e, 'GET', `/api/workflow-runs/${runId}`, token);
  assert.is(run.body.status, 'completed');
  assert.is(run.body.write, false);
  // Every node shows its status, and nodes keep the lane colour of their depth.
  await page.waitForFunction(() => (document.querySelector('wf-graph-view') as any)?.cy?.nodes('[status = "completed"]').length === 3);
  const nodes = await cyNodes(e, 'wf-graph-view');
  assert.equal(Object.fromEntries(nodes.map((n: any) => [n.id, [n.lane, n.status]])), {
    'specialistAgent-1': ['#7c3aed', 'completed'],
    'specialistAgent-2': ['#2563eb', 'completed'],
    'reportWriter-1': ['#0891b2', 'completed'],
  });
  // Laid out by depth: left to right.
  const x = Object.fromEntries(nodes.map((n: any) => [n.id, n.x]));
  assert.ok(x['specialistAgent-1'] < x['specialistAgent-2'] && x['specialistAgent-2'] < x['reportWriter-1']);
  // The run log panel shows the engine's log lines; the drawer shows the selected node.
  await page.locator('.log-line', { hasText: 'run completed' }).waitFor();
  await page.locator('.step[data-node=specialistAgent-2]').click();
  await page.locator('.drawer h2', { hasText: 'Build' }).waitFor();
  await page.locator('.drawer .msg', { hasText: 'built' }).first().waitFor();
  await screenshot(page, 'run-page');
  ctx.runId = runId;
});

Ui('history :: a row click expands the inline run history; clicks in the actions cell do not', async ({ e, workflowId, runId }) => {
  if (skip) return;
  const { page } = e;
  await page.goto('/');
  const row = page.locator(`tr.workflow-row[data-id="${workflowId}"]`);
  // The actions cell's own padding, away from any button.
  const cell = row.locator('td.actions-cell');
  const box = (await cell.boundingBox())!;
  await page.mouse.click(box.x + box.width - 3, box.y + 3);
  assert.is(await row.getAttribute('aria-expanded'), 'false');
  assert.is(await page.locator('.history-row').count(), 0);
  await row.locator('td').first().click();
  assert.is(await row.getAttribute('aria-expanded'), 'true');
  const item = page.locator('.run-history-item');
  await item.first().waitFor();
  assert.is(await item.count(), 1);
  assert.is(await item.locator('.badge').textContent(), 'Completed');
  assert.match((await item.locator('time').textContent())!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.is(await item.locator('a').getAttribute('href'), `/workflow-runs/${runId}`);
  await screenshot(page, 'workflows-page');
  // Keyboard: Enter on the focused row folds it again.
  await row.focus();
  await page.keyboard.press('Enter');
  assert.is(await row.getAttribute('aria-expanded'), 'false');
});

Ui.run();
