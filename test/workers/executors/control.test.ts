import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listLogs } from '../../../sql/logs.js';
import { latestSteps } from '../../../sql/steps.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from '../../queue/fixture.js';

const Conditional = suite('workers/executors conditional');

const branchGraph = (answer: string) => ({
  nodes: [
    node('check', `check [[fake:answer=${answer}]]`),
    node('if', 'route on the tests', { condition: { op: 'contains' as const, value: 'PASS' } }, 'conditional'),
    node('yes', 'ship it'),
    node('no', 'fix it'),
    node('no-after', 'after fixing'),
    node('join', 'report', {}, 'aggregator'),
  ],
  edges: [edge('check', 'if'), edge('if', 'yes', 'true'), edge('if', 'no', 'false'), edge('no', 'no-after'), edge('yes', 'join'), edge('no-after', 'join')],
});

Conditional('true branch :: taken side runs, untaken side and its descendants are skipped, the join runs', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, branchGraph('tests PASS'));
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const st = latestSteps(f.db, id);
    assert.is(st.get('if')!.output, 'true');
    assert.is(st.get('yes')!.status, 'completed');
    assert.is(st.get('no')!.status, 'skipped');
    assert.is(st.get('no-after')!.status, 'skipped', 'all parents skipped → skipped');
    assert.is(st.get('join')!.status, 'completed', 'one live parent keeps a node');
    assert.ok(listLogs(f.db, id).some((l) => /node 'NO' \(no\) skipped/.test(l.message)));
    assert.is(f.invocations().filter((i) => i.argv.join(' ').includes('fix it')).length, 0);
  } finally {
    await s.stop();
  }
});

Conditional('false branch :: the other side runs', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, branchGraph('tests broken'));
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const st = latestSteps(f.db, id);
    assert.is(st.get('if')!.output, 'false');
    assert.is(st.get('yes')!.status, 'skipped');
    assert.is(st.get('no')!.status, 'completed');
    assert.is(st.get('no-after')!.status, 'completed');
  } finally {
    await s.stop();
  }
});

const Aggregator = suite('workers/executors aggregator');

Aggregator('join :: the parents\' outputs in graph order under their labels', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, {
      nodes: [node('one', 'one [[fake:answer=FIRST]]'), node('two', 'two [[fake:answer=SECOND]]'), node('agg', 'combine', {}, 'aggregator')],
      edges: [edge('two', 'agg'), edge('one', 'agg')],
    });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const out = latestSteps(f.db, id).get('agg')!.output!;
    assert.match(out, /## ONE \(one\)\n\nFIRST\n\n## TWO \(two\)\n\nSECOND/);
  } finally {
    await s.stop();
  }
});

Conditional.run();
Aggregator.run();
