import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderValue } from '../../../workers/executors/memory.js';
import { eventsAfter } from '../../../sql/events.js';
import { latestSteps } from '../../../sql/steps.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from '../../queue/fixture.js';

const Memory = suite('workers/executors memoryWrite');

Memory('value :: default is the parents\' outputs; templates substitute outputs and one node', () => {
  const parents = [{ id: 'a', label: 'A', output: 'alpha' }, { id: 'b', label: 'B', output: 'beta' }];
  assert.is(renderValue(undefined, parents), '## A (a)\n\nalpha\n\n## B (b)\n\nbeta');
  assert.is(renderValue('b said {{node:b}}', parents), 'b said beta');
  assert.match(renderValue('all: {{ outputs }}', parents), /^all: ## A/);
});

Memory('write :: a memory_entries row with key, scope and sensitivity, and a memory.write event (sensitive masked)', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, {
      nodes: [
        node('src', 'src [[fake:answer=SECRET-FINDING]]'),
        node('mem', 'remember', { key: 'findings', memoryScope: 'team', sensitivity: 'sensitive' }, 'memoryWrite'),
        node('plain', 'remember plainly', {}, 'memoryWrite'),
        node('reader', 'read context'),
      ],
      edges: [edge('src', 'mem'), edge('src', 'plain'), edge('mem', 'reader')],
    });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    const rows = f.db.prepare('SELECT node_id, key, value, scope, sensitivity FROM memory_entries WHERE run_id = ? ORDER BY node_id').all(id) as Array<Record<string, string>>;
    assert.equal(rows.map((r) => [r.node_id, r.key, r.scope, r.sensitivity]), [['mem', 'findings', 'team', 'sensitive'], ['plain', 'plain', 'workflow', 'normal']]);
    assert.match(rows[0].value, /SECRET-FINDING/);
    const events = eventsAfter(f.db, 0, id, 1000).filter((e) => e.type === 'memory.write');
    assert.is(events.length, 2);
    const masked = events.find((e) => e.payload.key === 'findings')!;
    assert.not.match(JSON.stringify(masked.payload), /SECRET-FINDING/);
    assert.not.match(latestSteps(f.db, id).get('mem')!.output!, /SECRET-FINDING/, 'a sensitive value stays out of the context');
  } finally {
    await s.stop();
  }
});

Memory.run();
