import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventsAfter } from '../../sql/events.js';
import { runArtifactsDir } from '../../workers/workspace.js';
import { edge, node } from '../queue/fixture.js';
import { runApi } from './run-fixture.js';

const Artifacts = suite('server/artifacts');

Artifacts('artifacts :: a completed run: its folder, the working copy named not listed, files, and the run.report event', async () => {
  const f = await runApi();
  try {
    await f.workflow('Reported', {
      nodes: [node('a', 'build [[fake:answer=built]]'), node('r', 'write it up [[fake:answer=REPORT: all good]]', {}, 'reportWriter')],
      edges: [edge('a', 'r')],
    });
    const id = (await f.start('Reported')).json().run_id;
    await f.waitRun(id, ['completed']);
    const folder = runArtifactsDir(f.config, id);
    mkdirSync(path.join(folder, 'logs'), { recursive: true });
    writeFileSync(path.join(folder, 'logs', 'note.txt'), 'hello');
    const r = await f.req({ url: `/api/workflow-runs/${id}/artifacts`, token: f.operatorToken });
    assert.is(r.statusCode, 200, r.body);
    const body = r.json();
    assert.is(body.folder, folder);
    assert.is(body.working_copy, path.join(folder, 'workspace'));
    assert.is(body.write, false);
    assert.is(body.pull_request_url, null);
    assert.equal(body.files, [{ path: 'logs/note.txt', size: 5 }]);
    assert.is(body.truncated, false);
    const report = eventsAfter(f.db, 0, id).filter((ev) => ev.type === 'run.report');
    assert.is(report.length, 1);
    const payload = report[0].payload as { node_ids: string[]; report: string };
    assert.equal([payload.node_ids, payload.report], [['r'], 'REPORT: all good']);
  } finally {
    await f.close();
  }
});

Artifacts('artifacts :: an unknown run is 404; no token is 401', async () => {
  const f = await runApi({ scheduler: false });
  try {
    const r = await f.req({ url: '/api/workflow-runs/nope/artifacts', token: f.operatorToken });
    assert.is(r.statusCode, 404);
    assert.is(r.json().code, 'RUN_NOT_FOUND');
    assert.is((await f.req({ url: '/api/workflow-runs/nope/artifacts' })).statusCode, 401);
  } finally {
    await f.close();
  }
});

Artifacts.run();
