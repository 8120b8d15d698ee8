/**
 * The run page live: the 2-second refresh (with the event stream blocked), an expired gate, and Cancel.
 */
/* Browser globals inside page.evaluate callbacks (the test tsconfig has no DOM lib). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { agentNode, apiCall, approvedRepo, e2eAvailable, gatedGraph, runStatus, signedIn, startE2E, startRun, until, type E2E } from './harness.js';

const skip = e2eAvailable();
const Run = suite<{ e: E2E; token: string; repo: string; gated: string }>('e2e/run-live');

Run.before(async (ctx) => {
  if (skip) return;
  ctx.e = await startE2E();
  ctx.token = await signedIn(ctx.e);
  ctx.repo = approvedRepo(ctx.e);
  const wf = await apiCall(ctx.e, 'POST', '/api/workflows', ctx.token, { name: 'Gated release', graph: gatedGraph(0) });
  assert.is(wf.status, 201, JSON.stringify(wf.body));
  ctx.gated = wf.body.id;
});
Run.after(async (ctx) => {
  await ctx.e?.close();
});

Run('refresh :: with the event stream blocked the page re-reads the run every 2 s while active, and stops when it ends', async (ctx) => {
  if (skip) return console.log(`skipped: ${skip}`);
  const { page } = ctx.e;
  const runId = await startRun(ctx, ctx.gated);
  await page.route('**/events*', (r) => r.abort());
  const reads: number[] = [];
  const onRequest = (req: { url(): string; method(): string }) => {
    if (req.method() === 'GET' && new URL(req.url()).pathname === `/api/workflow-runs/${runId}`) reads.push(Date.now());
  };
  page.on('request', onRequest);
  await page.goto(`/workflow-runs/${runId}`);
  // Only polling can bring the gate into view.
  await page.locator('.run-page[data-status=waiting_approval]').waitFor({ timeout: 30_000 });
  // Resolve it outside the page: the page must notice on its own.
  const run = await runStatus(ctx, runId);
  const ok = await apiCall(ctx.e, 'POST', `/api/workflow-runs/${runId}/approve/${run.approvals[0].id}`, ctx.token, { note: 'approved from the API' });
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  await page.locator('.run-page[data-status=completed]').waitFor({ timeout: 30_000 });
  const atEnd = reads.length;
  assert.ok(atEnd >= 2, `only ${atEnd} reads`);
  const gaps = reads.slice(1).map((t, i) => t - reads[i]!);
  assert.ok(Math.min(...gaps) >= 1900, `reads closer than 2 s: ${gaps.join(', ')} ms`);
  // Ended: no more reads.
  await page.waitForTimeout(4500);
  assert.is(reads.length, atEnd, 'polling stopped after the run ended');
  page.off('request', onRequest);
  await page.unroute('**/events*');
});

Run('approval :: an expired gate says so and offers no action', async (ctx) => {
  if (skip) return;
  const { page } = ctx.e;
  const wf = await apiCall(ctx.e, 'POST', '/api/workflows', ctx.token, { name: 'Short gate', graph: gatedGraph(0, { timeoutHours: 0.0005 }) });
  assert.is(wf.status, 201, JSON.stringify(wf.body));
  const runId = await startRun(ctx, wf.body.id);
  await page.goto(`/workflow-runs/${runId}`);
  await page.locator('.run-page[data-status=cancelled]').waitFor({ timeout: 60_000 });
  const expired = page.locator('.approval-expired');
  await expired.waitFor();
  assert.match((await expired.textContent())!, /expired/i);
  assert.is(await expired.locator('button').count(), 0);
  const run = await runStatus(ctx, runId);
  assert.is(run.approvals[0].status, 'expired');
});

Run('memory :: a write run shows its delivery, and the run memory masks sensitive values', async (ctx) => {
  if (skip) return;
  const { page } = ctx.e;
  const graph = {
    nodes: [
      agentNode('a', 'Change the readme [[fake:write=NOTES.md:hello from the agent]] [[fake:answer=changed]]'),
      { id: 'mem', type: 'memoryWrite', position: { x: 230, y: 0 }, data: { label: 'Remember', objective: 'Keep the deploy token', key: 'deploy_token', value: 'hunter2-secret-value', sensitivity: 'sensitive', memoryScope: 'workflow' } },
    ],
    edges: [{ id: 'e1', source: 'a', target: 'mem' }],
  };
  const wf = await apiCall(ctx.e, 'POST', '/api/workflows', ctx.token, { name: 'Remembering', graph });
  assert.is(wf.status, 201, JSON.stringify(wf.body));
  const r = await apiCall(ctx.e, 'POST', '/api/workflow-runs', ctx.token, { workflow_id: wf.body.id, workspace_path: ctx.repo, write: true });
  assert.is(r.status, 201, JSON.stringify(r.body));
  const runId = r.body.run_id;
  await page.goto(`/workflow-runs/${runId}`);
  await page.locator('.run-page[data-status=completed]').waitFor({ timeout: 60_000 });
  const run = await runStatus(ctx, runId);
  assert.is(run.write, true);
  // No remote here: the branch is left in a bundle, and the page says where (a pull request link otherwise).
  assert.ok(run.pull_request_url || run.bundle_path, 'a write run is delivered');
  if (run.pull_request_url) assert.is(await page.locator('[data-action=pull-request]').getAttribute('href'), run.pull_request_url);
  else if (run.bundle_path) await page.locator('.run-actions', { hasText: 'Bundle' }).waitFor();
  assert.match((await page.locator('.run-meta').textContent())!, /write/);
  await page.locator('[data-action=memory]').click();
  const card = page.locator('.memory-card');
  await card.locator('td', { hasText: 'deploy_token' }).waitFor();
  assert.match((await card.textContent())!, /••••••/);
  assert.not.match(await page.content(), /hunter2-secret-value/);
});

Run('cancel :: the Cancel button stops an active run', async (ctx) => {
  if (skip) return;
  const { page } = ctx.e;
  const wf = await apiCall(ctx.e, 'POST', '/api/workflows', ctx.token, { name: 'Slow', graph: { nodes: [agentNode('slow', 'Wait [[fake:sleep=60]]')], edges: [] } });
  const runId = await startRun(ctx, wf.body.id);
  await page.goto(`/workflow-runs/${runId}`);
  await page.locator('.run-page[data-status=running]').waitFor({ timeout: 30_000 });
  page.once('dialog', (d) => void d.accept());
  await page.locator('[data-action=cancel]').click();
  await page.locator('.run-page[data-status=cancelled]').waitFor({ timeout: 30_000 });
  await until(async () => (await runStatus(ctx, runId)).status === 'cancelled', 'run cancelled');
  assert.is(await page.locator('[data-action=cancel]').count(), 0);
});

Run.run();
