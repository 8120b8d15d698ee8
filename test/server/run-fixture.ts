/**
 * API + engine fixture for the run, approval and event suites: the production app with signed-in users, an
 * approved git workspace, the fake agent CLIs on PATH, and a live scheduler over the same database.
 */
import { Scheduler } from '../../queue/scheduler.js';
import { approveWorkspace } from '../../workers/workspace.js';
import { engineFixture, type EngineFixture } from '../queue/fixture.js';
import { gitRepo, waitFor } from '../helpers.js';
import { makeApp, type ApiFixture } from './api-fixture.js';

export interface RunApiFixture extends ApiFixture {
  repo: string;
  engine: EngineFixture;
  scheduler: Scheduler;
  /** Creates a workflow through the API; returns its id. */
  workflow(name: string, graph: unknown): Promise<string>;
  /** POST /api/workflow-runs as the operator; returns the response. */
  start(workflowId: string, extra?: Record<string, unknown>): Promise<{ statusCode: number; json(): any; body: string }>;
  waitRun(runId: string, statuses: string[], timeoutMs?: number): Promise<any>;
}

export async function runApi(opts: { scheduler?: boolean } = {}): Promise<RunApiFixture> {
  const api = await makeApp();
  // The fake CLIs' environment (PATH, log, state folder) comes from the engine fixture.
  const engine = engineFixture();
  const repo = gitRepo();
  approveWorkspace(api.db, repo);
  const scheduler = new Scheduler(api.db, { ...api.config, leaseMs: 5000 });
  if (opts.scheduler !== false) scheduler.start();
  const f: RunApiFixture = {
    ...api,
    repo,
    engine,
    scheduler,
    async workflow(name, graph) {
      const r = await api.req({ method: 'POST', url: '/api/workflows', token: api.operatorToken, payload: { name, graph } as object });
      if (r.statusCode !== 201) throw new Error(r.body);
      return r.json().id;
    },
    start: (workflowId, extra = {}) => api.req({ method: 'POST', url: '/api/workflow-runs', token: api.operatorToken, payload: { workflow_id: workflowId, workspace_path: repo, ...extra } }),
    async waitRun(runId, statuses, timeoutMs = 20_000) {
      return waitFor(async () => {
        const r = (await api.req({ url: `/api/workflow-runs/${runId}`, token: api.operatorToken })).json();
        return statuses.includes(r.status) ? r : undefined;
      }, timeoutMs, 30, `run ${runId} to reach ${statuses.join('/')}`);
    },
    async close() {
      await scheduler.stop();
      await api.close();
    },
  };
  return f;
}
