import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WfError } from '../../core/errors.js';
import { computeLevels, graphProblems, type Graph, type GraphNode } from '../../core/graph.js';
import { validatePlan } from '../../core/plan.js';
import { buildPlanGraph, currentPlanOf, hasGeneratedSpecialists, mergePlan, pinnedSubtasks, ROW_GAP } from '../../core/plan-graph.js';

const SUP: GraphNode = { id: 'sup', type: 'smartSupervisor', position: { x: 400, y: 0 }, data: { label: 'Supervisor', objective: 'ship it' } };
const plan = (raw: unknown) => validatePlan(raw);
const DIAMOND = plan({
  subtasks: [
    { id: 'api', label: 'API', objective: 'api' },
    { id: 'ui', label: 'UI', objective: 'ui' },
    { id: 'int', label: 'Integrate', objective: 'int', depends_on: ['api', 'ui'] },
  ],
});
const pairs = (g: Graph) => g.edges.map((e) => `${e.source}>${e.target}`).sort();

const Build = suite('core/plan-graph build');

Build('build :: roots hang off the supervisor, others follow depends_on, all tagged', () => {
  const g = buildPlanGraph(DIAMOND, { supervisorId: 'sup', runtime: 'direct', agent: 'codex' });
  assert.equal(g.nodes.map((n) => n.id), ['sup-api', 'sup-ui', 'sup-int']);
  assert.equal(pairs(g), ['sup-api>sup-int', 'sup-ui>sup-int', 'sup>sup-api', 'sup>sup-ui']);
  assert.ok(g.nodes.every((n) => n.data.generatedBy === 'sup' && n.type === 'specialistAgent' && n.data.sandboxAgent === 'codex' && n.data.runtime === 'direct'));
  assert.ok(g.edges.every((e) => e.data?.generatedBy === 'sup'));
  assert.equal(graphProblems({ nodes: [SUP, ...g.nodes], edges: g.edges }), []);
});

Build('build :: approval after the sinks by default, memory after the gate; both tagged', () => {
  const p = plan({ subtasks: [{ id: 'a', label: 'A', objective: 'a' }, { id: 'b', label: 'B', objective: 'b' }, { id: 'c', label: 'C', objective: 'c', depends_on: ['a'] }], approval: { label: 'Gate', objective: 'check', timeoutHours: 2 }, memory: { key: 'k' } });
  const g = buildPlanGraph(p, { supervisorId: 'sup' });
  assert.equal(pairs(g), ['sup-a>sup-c', 'sup-approval>sup-memory', 'sup-b>sup-approval', 'sup-c>sup-approval', 'sup>sup-a', 'sup>sup-b'].sort());
  const gate = g.nodes.find((n) => n.type === 'humanApproval')!;
  assert.equal([gate.data.generatedBy, gate.data.timeoutHours], ['sup', 2]);
  const full = { nodes: [SUP, ...g.nodes], edges: g.edges };
  assert.equal(graphProblems(full), []);
  const levels = computeLevels(full);
  assert.equal(levels.at(-2)!.nodeIds, ['sup-approval']);
  assert.equal(levels.at(-1)!.nodeIds, ['sup-memory']);
});

Build('build :: gate covering named subtasks only', () => {
  const p = plan({ ...DIAMOND, approval: { after: ['api'] } });
  const g = buildPlanGraph(p, { supervisorId: 'sup' });
  assert.equal(g.edges.filter((e) => e.target === 'sup-approval').map((e) => e.source), ['sup-api']);
});

Build('build :: positions: one row per depth below the supervisor, centred, no overlaps', () => {
  const g = buildPlanGraph(DIAMOND, { supervisorId: 'sup', origin: { x: 400, y: 0 } });
  const pos = Object.fromEntries(g.nodes.map((n) => [n.id, n.position!]));
  assert.is(pos['sup-api'].y, ROW_GAP);
  assert.is(pos['sup-ui'].y, ROW_GAP);
  assert.is(pos['sup-int'].y, 2 * ROW_GAP);
  assert.is(pos['sup-int'].x, 400);
  assert.is((pos['sup-api'].x + pos['sup-ui'].x) / 2, 400);
  assert.is.not(pos['sup-api'].x, pos['sup-ui'].x);
});

Build('build :: ids avoid taken ones and odd characters', () => {
  const g = buildPlanGraph(plan({ subtasks: [{ id: 'write docs!', label: 'D', objective: 'd' }] }), { supervisorId: 'sup', takenIds: ['sup-write-docs'] });
  assert.equal(g.nodes[0].id, 'sup-write-docs-2');
});

const Merge = suite('core/plan-graph merge');

/** A workflow with three manual nodes wired around a supervisor's earlier plan. */
function manualWorkflow(): Graph {
  const first = buildPlanGraph(DIAMOND, { supervisorId: 'sup', origin: SUP.position });
  return {
    nodes: [
      { id: 'intake', type: 'specialistAgent', position: { x: 0, y: -200 }, data: { label: 'Intake', objective: 'read the ticket' } },
      SUP,
      ...first.nodes,
      { id: 'report', type: 'reportWriter', position: { x: 900, y: 600 }, data: { label: 'Report', objective: 'write it up' } },
      { id: 'notify', type: 'webhook', position: { x: 900, y: 800 }, data: { label: 'Notify', objective: 'tell chat', url: 'https://example.com/hook' } },
    ],
    edges: [
      { id: 'm1', source: 'intake', target: 'sup' },
      ...first.edges,
      { id: 'm2', source: 'sup-int', target: 'report' },
      { id: 'm3', source: 'report', target: 'notify' },
    ],
  };
}

Merge('merge :: refinement keeps three manual nodes and their edges, replaces the generated ones', () => {
  const current = manualWorkflow();
  const refined = plan({
    subtasks: [
      { id: 'api', label: 'API v2', objective: 'api again' },
      { id: 'db', label: 'DB', objective: 'schema' },
      { id: 'int', label: 'Integrate', objective: 'int', depends_on: ['api', 'db'] },
    ],
  });
  const merged = mergePlan(current, refined, { supervisorId: 'sup', supervisorNode: SUP });
  for (const id of ['intake', 'report', 'notify', 'sup']) {
    assert.equal(merged.nodes.find((n) => n.id === id), current.nodes.find((n) => n.id === id), id);
  }
  for (const id of ['m1', 'm2', 'm3']) assert.equal(merged.edges.find((e) => e.id === id), current.edges.find((e) => e.id === id), id);
  assert.not.ok(merged.nodes.some((n) => n.id === 'sup-ui'), 'the dropped generated node is gone');
  assert.not.ok(merged.edges.some((e) => e.source === 'sup-ui' || e.target === 'sup-ui'), 'and its generated edges');
  assert.equal(merged.nodes.find((n) => n.id === 'sup-api')!.data.label, 'API v2');
  assert.ok(merged.nodes.some((n) => n.id === 'sup-db' && n.data.generatedBy === 'sup'));
  assert.equal(graphProblems(merged), []);
  assert.is(merged.nodes.length, 7);
});

Merge('merge :: a new plan that drops a node a manual edge needs is refused by name', () => {
  const current = manualWorkflow();
  const err = (() => {
    try {
      mergePlan(current, plan({ subtasks: [{ id: 'api', label: 'A', objective: 'a' }] }), { supervisorId: 'sup', supervisorNode: SUP });
    } catch (e) {
      return e as WfError;
    }
    return undefined;
  })();
  assert.is(err?.code, 'PLAN_INVALID');
  assert.match(err!.message, /drops 'sup-int', which the manually added edge 'm2' connects to/);
  assert.equal(pinnedSubtasks(current, 'sup'), ['int']);
});

Merge('merge :: another supervisor\'s elements stay; its edges to removed nodes are dropped', () => {
  const current = manualWorkflow();
  current.nodes.push({ id: 'sup2', type: 'smartSupervisor', data: { label: 'S2', objective: 'o' } });
  current.nodes.push({ id: 'sup2-x', type: 'specialistAgent', data: { label: 'X', objective: 'x', generatedBy: 'sup2' } });
  current.edges.push({ id: 'o1', source: 'sup2', target: 'sup2-x', data: { generatedBy: 'sup2' } });
  current.edges.push({ id: 'o2', source: 'sup-ui', target: 'sup2-x', data: { generatedBy: 'sup2' } });
  const merged = mergePlan(current, plan({ subtasks: [{ id: 'api', label: 'A', objective: 'a' }, { id: 'int', label: 'I', objective: 'i', depends_on: ['api'] }] }), { supervisorId: 'sup', supervisorNode: SUP });
  assert.ok(merged.nodes.some((n) => n.id === 'sup2-x'));
  assert.ok(merged.edges.some((e) => e.id === 'o1'));
  assert.not.ok(merged.edges.some((e) => e.id === 'o2'));
  assert.equal(graphProblems(merged), []);
});

Merge('merge :: without a current plan: the supervisor node plus the subgraph', () => {
  const merged = mergePlan(undefined, DIAMOND, { supervisorId: 'sup', supervisorNode: SUP });
  assert.equal(merged.nodes[0], SUP);
  assert.is(merged.nodes.length, 4);
  assert.equal(graphProblems(merged), []);
  assert.ok(hasGeneratedSpecialists(merged, 'sup'));
  assert.not.ok(hasGeneratedSpecialists(merged, 'other'));
});

Merge('merge :: current plan read back for the refinement prompt', () => {
  const current = mergePlan(undefined, plan({ ...DIAMOND, approval: { label: 'G', objective: 'g' }, memory: { label: 'M', objective: 'm' } }), { supervisorId: 'sup', supervisorNode: SUP });
  const back = currentPlanOf(current, 'sup');
  assert.equal(back.subtasks.map((s) => [s.id, s.depends_on]), [['api', []], ['ui', []], ['int', ['api', 'ui']]]);
  assert.equal(back.approval?.after, ['int']);
  assert.equal(back.memory?.after, ['approval']);
  // What the agent would send back unchanged rebuilds the same graph.
  const again = mergePlan(current, validatePlan(back), { supervisorId: 'sup', supervisorNode: SUP });
  assert.equal(pairs(again), pairs(current));
});

Merge('merge :: a manual child of the supervisor is wired after the plan\'s final nodes', () => {
  const current: Graph = {
    nodes: [SUP, { id: 'report', type: 'reportWriter', data: { label: 'Report', objective: 'r' } }],
    edges: [{ id: 'm1', source: 'sup', target: 'report' }],
  };
  const merged = mergePlan(current, DIAMOND, { supervisorId: 'sup', supervisorNode: SUP });
  assert.ok(merged.edges.some((e) => e.id === 'm1' && e.data === undefined), 'manual edge kept as is');
  const bridge = merged.edges.filter((e) => e.target === 'report' && e.id !== 'm1');
  assert.equal(bridge.map((e) => [e.source, e.data?.generatedBy]), [['sup-int', 'sup']]);
  assert.equal(computeLevels(merged).map((l) => l.nodeIds), [['sup'], ['sup-api', 'sup-ui'], ['sup-int'], ['report']]);
  // Re-planning replaces the bridge with the new plan's.
  const again = mergePlan(merged, plan({ subtasks: [{ id: 'solo', label: 'S', objective: 's' }] }), { supervisorId: 'sup', supervisorNode: SUP });
  assert.equal(again.edges.filter((e) => e.target === 'report').map((e) => e.source).sort(), ['sup', 'sup-solo']);
});

const Props = suite('core/plan-graph properties');

/** Random acyclic plans: subtask i may depend only on subtasks before it; optional gate and memory. */
const planArb = fc
  .integer({ min: 1, max: 12 })
  .chain((n) =>
    fc.record({
      deps: fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => j)))),
      approval: fc.boolean(),
      memory: fc.boolean(),
      ids: fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'x', '1', '.', '!', '-', '_'), minLength: 1, maxLength: 6 }), { minLength: n, maxLength: n }),
    }),
  )
  .map(({ deps, approval, memory, ids }) =>
    validatePlan({
      subtasks: deps.map((d, i) => ({ id: ids[i], label: `L${i}`, objective: `O${i}`, depends_on: d.map((j) => ids[j]) })),
      ...(approval ? { approval: true } : {}),
      ...(memory ? { memory: true } : {}),
    }),
  );

Props('property :: any valid plan builds a valid, fully tagged graph whose roots hang off the supervisor', () => {
  fc.assert(
    fc.property(planArb, (p) => {
      const g = mergePlan(undefined, p, { supervisorId: 'sup', supervisorNode: SUP });
      assert.equal(graphProblems(g), []);
      const generated = g.nodes.filter((n) => n.id !== 'sup');
      assert.ok(generated.every((n) => n.data.generatedBy === 'sup'));
      assert.ok(g.edges.every((e) => e.data?.generatedBy === 'sup'));
      for (const n of generated) assert.ok(g.edges.some((e) => e.target === n.id), `${n.id} has a parent`);
      assert.is(new Set(generated.map((n) => `${n.position!.x},${n.position!.y}`)).size, generated.length, 'no two nodes share a position');
    }),
    { numRuns: 200 },
  );
});

Props('property :: re-planning never changes a manual node or edge', () => {
  fc.assert(
    fc.property(planArb, planArb, (p1, p2) => {
      const base = mergePlan(undefined, p1, { supervisorId: 'sup', supervisorNode: SUP });
      const manual: Graph = {
        nodes: [...base.nodes, { id: 'm1', type: 'specialistAgent', data: { label: 'M1', objective: 'm' } }, { id: 'm2', type: 'reportWriter', data: { label: 'M2', objective: 'm' } }],
        edges: [...base.edges, { id: 'x1', source: 'm1', target: 'sup' }, { id: 'x2', source: 'm1', target: 'm2' }],
      };
      const merged = mergePlan(manual, p2, { supervisorId: 'sup', supervisorNode: SUP });
      for (const n of manual.nodes.filter((x) => !x.data.generatedBy)) assert.equal(merged.nodes.find((x) => x.id === n.id), n);
      for (const e of manual.edges.filter((x) => !x.data?.generatedBy)) assert.equal(merged.edges.find((x) => x.id === e.id), e);
      assert.equal(graphProblems(merged), []);
      assert.is(merged.nodes.filter((n) => n.data.generatedBy === 'sup').length, p2.subtasks.length + (p2.approval ? 1 : 0) + (p2.memory ? 1 : 0));
    }),
    { numRuns: 200 },
  );
});

Build.run();
Merge.run();
Props.run();
