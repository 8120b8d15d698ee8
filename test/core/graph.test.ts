import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertValidGraph, computeLevels, graphProblems, maxParallelNodes, slugify, type Graph, type GraphNode } from '../../core/graph.js';
import { loadSeedData } from '../../sql/seed.js';

const node = (id: string, type: GraphNode['type'] = 'specialistAgent', data: Partial<GraphNode['data']> = {}): GraphNode => ({
  id,
  type,
  data: { label: id.toUpperCase(), objective: `do ${id}`, ...data },
});
const edge = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${target}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });

const Validate = suite('core/graph validate');

Validate('validate :: a well-formed graph has no problems', () => {
  assert.equal(graphProblems({ nodes: [node('a'), node('b')], edges: [edge('a', 'b')] }), []);
});

Validate('validate :: built-in templates are valid', () => {
  for (const t of loadSeedData().templates) assert.equal(graphProblems(t.graph), [], t.key);
});

Validate('validate :: names the node with a missing label or objective', () => {
  const problems = graphProblems({ nodes: [node('a', 'specialistAgent', { label: ' ' }), node('b', 'webhook', { objective: '', url: 'http://x' })], edges: [] });
  assert.equal(problems.map((p) => [p.node_id, p.field]), [['a', 'label'], ['b', 'objective']]);
  assert.match(problems[0].message, /node 'a': Label is required/);
});

Validate('validate :: unknown type, edge to a missing node, self loop', () => {
  const problems = graphProblems({ nodes: [node('a'), { ...node('b'), type: 'robot' as never }], edges: [edge('a', 'zzz'), edge('a', 'a')] });
  const messages = problems.map((p) => p.message).join('\n');
  assert.match(messages, /unknown type 'robot'/);
  assert.match(messages, /missing node 'zzz'/);
  assert.match(messages, /connects node 'a' to itself/);
});

Validate('validate :: conditional edges need a true/false handle', () => {
  const g = { nodes: [node('a'), node('c', 'conditional', { condition: { op: 'contains', value: 'OK' } }), node('t'), node('f')], edges: [edge('a', 'c'), edge('c', 't', 'true'), edge('c', 'f')] };
  const problems = graphProblems(g);
  assert.is(problems.length, 1);
  assert.is(problems[0].edge_id, 'c-f');
});

Validate('validate :: a conditional with several parents must name its source', () => {
  const g = { nodes: [node('a'), node('b'), node('c', 'conditional', { condition: { op: 'succeeded' } })], edges: [edge('a', 'c'), edge('b', 'c')] };
  assert.match(graphProblems(g)[0].message, /has 2 parents; name the node to test/);
});

Validate('validate :: a cycle is named', () => {
  const g = { nodes: [node('a'), node('b'), node('c')], edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'a')] };
  const problems = graphProblems(g);
  assert.is(problems.length, 1);
  assert.match(problems[0].message, /cycle: a → b → c → a/);
});

Validate('validate :: field types are checked', () => {
  const g = {
    nodes: [
      node('a', 'specialistAgent', { sandboxAgent: 'gpt' as never, maxIterations: 0, memoryScope: 'everyone' as never }),
      node('h', 'humanApproval', { allowedActions: ['approve', 'shrug'] as never, timeoutHours: -1 }),
      node('w', 'webhook', { url: 'ftp://x' }),
    ],
    edges: [],
  };
  const fields = graphProblems(g).map((p) => `${p.node_id}.${p.field}`);
  assert.equal(fields, ['a.sandboxAgent', 'a.memoryScope', 'a.maxIterations', 'h.allowedActions', 'h.timeoutHours', 'w.url']);
});

Validate('validate :: a container image must be an image reference, never an option', () => {
  assert.equal(graphProblems({ nodes: [node('a', 'specialistAgent', { runtime: 'container', image: 'ghcr.io/acme/agents:1.2' })], edges: [] }), []);
  for (const image of ['--privileged', '', 'a b', '/etc/passwd']) {
    const p = graphProblems({ nodes: [node('a', 'specialistAgent', { runtime: 'container', image })], edges: [] });
    assert.equal(p.map((x) => x.field), ['image'], image);
  }
});

Validate('validate :: assertValidGraph throws GRAPH_INVALID with every problem', () => {
  try {
    assertValidGraph({ nodes: [node('a', 'specialistAgent', { label: '' }), node('b', 'specialistAgent', { objective: '' })], edges: [] });
    assert.unreachable();
  } catch (e) {
    const err = e as { code: string; statusCode: number; message: string; details: { problems: unknown[] } };
    assert.is(err.code, 'GRAPH_INVALID');
    assert.is(err.statusCode, 422);
    assert.match(err.message, /and 1 more problem/);
    assert.is(err.details.problems.length, 2);
  }
});

Validate('validate :: non-objects are refused, not crashed on', () => {
  for (const g of [null, 1, 'x', [], { nodes: 'x', edges: [] }, { nodes: [null], edges: [1] }]) {
    assert.ok(graphProblems(g).length > 0, JSON.stringify(g));
  }
});

const Levels = suite('core/graph levels');

Levels('levels :: depth is max parent depth + 1, nodes in graph order', () => {
  const g: Graph = { nodes: [node('s', 'supervisorAgent'), node('b'), node('a'), node('r', 'reportWriter')], edges: [edge('s', 'a'), edge('s', 'b'), edge('a', 'r'), edge('b', 'r'), edge('s', 'r')] };
  assert.equal(computeLevels(g).map((l) => l.nodeIds), [['s'], ['b', 'a'], ['r']]);
});

Levels('levels :: an approval node forms its own level after its depth\'s other nodes', () => {
  const g: Graph = { nodes: [node('a'), node('gate', 'humanApproval'), node('b'), node('c')], edges: [edge('a', 'gate'), edge('a', 'b'), edge('gate', 'c')] };
  const levels = computeLevels(g);
  assert.equal(levels.map((l) => [l.nodeIds, l.approval]), [[['a'], false], [['b'], false], [['gate'], true], [['c'], false]]);
});

Levels('levels :: parallelism follows the first supervisor', () => {
  const par: Graph = { nodes: [node('s', 'supervisorAgent', { delegationStrategy: 'parallel_delegation' }), node('a'), node('b')], edges: [edge('s', 'a'), edge('s', 'b')] };
  assert.is(maxParallelNodes(par), 3);
  const seq: Graph = { nodes: [node('s', 'smartSupervisor'), node('a')], edges: [edge('s', 'a')] };
  assert.is(maxParallelNodes(seq), 1);
  assert.is(maxParallelNodes({ nodes: [node('a'), node('b')], edges: [] }), 1);
});

Levels('slugify :: names resolve to stable slugs', () => {
  assert.is(slugify('Feature Delivery'), 'feature-delivery');
  assert.is(slugify('  Ünïcode & Co. -- v2 '), 'unicode-co-v2');
  assert.is(slugify('!!!'), 'workflow');
});

Validate.run();
Levels.run();
