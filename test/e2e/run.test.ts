/**
 * The web UI end to end with runs through the real engine and the fake CLIs: the active-run lock and its
 * tooltip, a noteRequired gate approved with a note on the run page, the drawer / log panel resize bounds, the
 * step-list strip, and a node's whole output in the drawer.
 */
/* Browser globals inside page.evaluate callbacks (the test tsconfig has no DOM lib). */
declare const document: { querySelector(s: string): unknown };
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { waitFor } from '../helpers.js';
import { agentNode, apiCall, approvedRepo, e2eAvailable, gatedGraph, runStatus, screenshot, signedIn, startE2E, startRun, type E2E } from './harness.js';

const skip = e2eAvailable();
const Run = suite<{ e: E2E; token: string; repo: string; gated: string }>('e2e/run');

async function width(page: Page, selector: string): Promise<number> {
  return Math.round((await page.locator(selector).boundingBox())!.width);
}
async function height(page: Page, selector: string): Promise<number> {
  return Math.round((await page.locator(selector).boundingBox())!.height);
}

/** Drags a resize handle by (dx, dy) with the mouse. */
async function drag(page: Page, selector: string, dx: number, dy: number): Promise<void> {
  const b = (await page.locator(selector).boundingBox())!;
  const x = b.x + b.width / 2;
  const y = b.y + b.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

Run.before(async (ctx) => {
  if (skip) return;
  ctx.e = await startE2E();
  ctx.token = await signedIn(ctx.e);
  ctx.repo = approvedRepo(ctx.e);
  const wf = await apiCall(ctx.e, 'POST', '/api/workflows', ctx.token, { name: 'Gated release', graph: gatedGraph() });
  assert.is(wf.status, 201, JSON.stringify(wf.body));
  ctx.gated = wf.body.id;
});
Run.after(async (ctx) => {
  await ctx.e?.close();
});

Run('lock :: while a run is active, Run / Edit / Publish are disabled, Run reads Running then Awaiting approval, Edit has the tooltip', async (ctx) => {
  if (skip) return console.log(`skipped: ${skip}`);
  const { page } = ctx.e;
  await page.goto('/');
  const row = page.locator(`tr.workflow-row[data-id="${ctx.gated}"]`);
  await row.waitFor();
  assert.is(await row.locator('[data-action=run]').textContent(), 'Run');
  assert.not.ok(await row.locator('[data-action=edit]').isDisabled());
  const runId = await startRun(ctx, ctx.gated);
  await page.reload();
  const runBtn = row.locator('[data-action=run]');
  await page.waitForFunction((id) => {
    const b = (document.querySelector(`tr.workflow-row[data-id="${id}"] [data-action=run]`) as any);
    return b && b.textContent === 'Running';
  }, ctx.gated);
  assert.ok(await runBtn.isDisabled());
  const edit = row.locator('[data-action=edit]');
  assert.ok(await edit.isDisabled());
  assert.is(await edit.getAttribute('title'), 'Cannot edit while a run is active');
  assert.ok(await row.locator('[data-action=publish]').isDisabled());
  // The list refreshes itself while a row is locked: the gate turns the label into Awaiting approval.
  await page.waitForFunction((id) => (document.querySelector(`tr.workflow-row[data-id="${id}"] [data-action=run]`) as any)?.textContent === 'Awaiting approval', ctx.gated, { timeout: 30_000 });
  assert.ok(await runBtn.isDisabled());
  assert.ok(await edit.isDisabled());
  assert.is(await edit.getAttribute('title'), 'Cannot edit while a run is active');
  await screenshot(page, 'workflows-locked');
  // The API agrees: editing is refused while the run is active.
  const put = await apiCall(ctx.e, 'PUT', `/api/workflows/${ctx.gated}`, ctx.token, { name: 'Renamed' });
  assert.is(put.status, 409);
  (ctx as any).waitingRun = runId;
});

Run('approval :: a noteRequired gate offers only its allowed actions, blocks them until a note is typed, and is approved with the note', async (ctx) => {
  if (skip) return;
  const { page } = ctx.e;
  const runId = (ctx as any).waitingRun as string;
  await page.locator(`tr.workflow-row[data-id="${ctx.gated}"] a`, { hasText: 'View run' }).click();
  await page.waitForURL(`**/workflow-runs/${runId}`);
  const panel = page.locator('.approval-open');
  await panel.waitFor();
  assert.equal(await panel.locator('.approval-actions button').allTextContents(), ['Approve', 'Reject']);
  assert.ok(await panel.getByRole('button', { name: 'Approve' }).isDisabled());
  assert.ok(await panel.getByRole('button', { name: 'Reject' }).isDisabled());
  await panel.getByText('Enter a note to enable the actions.').waitFor();
  // Gate node shows its state in the graph.
  await page.waitForFunction(() => (document.querySelector('wf-graph-view') as any)?.cy?.$id('gate').data('status') === 'waiting_approval');
  await screenshot(page, 'run-page-approval');
  await panel.getByLabel(/Note/).fill('Checked the preparation output');
  assert.not.ok(await panel.getByRole('button', { name: 'Approve' }).isDisabled());
  await panel.getByRole('button', { name: 'Approve' }).click();
  await page.locator('.run-page[data-status=completed]').waitFor({ timeout: 60_000 });
  const run = await runStatus(ctx, runId);
  assert.is(run.status, 'completed');
  assert.is(run.approvals[0].status, 'approved');
  assert.is(run.approvals[0].resolution_comment, 'Checked the preparation output');
  // Resolved: no actions left, the decision and the note are shown.
  await page.locator('.approval', { hasText: 'Checked the preparation output' }).waitFor();
  assert.is(await page.locator('.approval-actions').count(), 0);
});

Run('run page :: drawer 280–700 px, run log 80–500 px and hideable, step list folds to a 40 px strip', async ({ e }) => {
  if (skip) return;
  const { page } = e;
  assert.is(await width(page, '.drawer'), 380);
  await drag(page, '.resize-x', -1000, 0);
  assert.is(await width(page, '.drawer'), 700);
  await drag(page, '.resize-x', 1500, 0);
  assert.is(await width(page, '.drawer'), 280);
  await drag(page, '.resize-x', -100, 0);
  assert.is(await width(page, '.drawer'), 380);
  // Keyboard on the focused handle.
  await page.locator('.resize-x').focus();
  await page.keyboard.press('End');
  assert.is(await width(page, '.drawer'), 700);

  assert.is(await height(page, '.log-panel'), 180);
  await drag(page, '.resize-y', 0, -1000);
  assert.is(await height(page, '.log-panel'), 500);
  await drag(page, '.resize-y', 0, 1000);
  assert.is(await height(page, '.log-panel'), 80);
  await page.locator('[data-action=hide-log]').click();
  assert.is(await page.locator('.log-panel').count(), 0);
  await page.locator('[data-action=show-log]').click();
  assert.is(await height(page, '.log-panel'), 80);

  assert.is(await width(page, '.steps-panel'), 260);
  await page.locator('[data-action=fold-steps]').click();
  assert.is(await width(page, '.steps-panel'), 40);
  assert.is(await page.locator('.steps-panel .step').count(), 3, 'the strip still lists every node');
  await page.locator('[data-action=fold-steps]').click();
  assert.is(await width(page, '.steps-panel'), 260);
});

Run('drawer :: a node\'s output is shown whole, not the 4,000-character summary the context keeps', async (ctx) => {
  if (skip) return;
  const { page } = ctx.e;
  // A report longer than the summary limit, ending in a line the summary would cut off. (Inline: the sandboxed
  // agent could not read a file outside its copy.)
  const report = Array.from({ length: 120 }, (_, i) => `finding ${i + 1}: ${'detail '.repeat(6).trim()}`).join('\n') + '\nEND OF REPORT';
  const wf = await apiCall(ctx.e, 'POST', '/api/workflows', ctx.token, { name: 'Long report', graph: { nodes: [agentNode('r', `Report [[fake:answer=${report.replace(/\n/g, '\\n')}]]`)], edges: [] } });
  assert.is(wf.status, 201, JSON.stringify(wf.body));
  const runId = await startRun(ctx, wf.body.id);
  const run = await waitFor(async () => {
    const r = await runStatus(ctx, runId);
    return ['completed', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
  }, 60_000, 100, 'the run to end');
  assert.is(run.status, 'completed', JSON.stringify(run.steps));
  await page.goto(`/workflow-runs/${runId}`);
  await page.locator('.run-page[data-status=completed]').waitFor({ timeout: 30_000 });
  await page.locator('.steps-panel .step[data-node=r]').click();
  const shown = await page.locator('.drawer details pre.msg').first().textContent();
  assert.ok(report.length > 4000);
  assert.is(shown, report);
});

Run.run();
