import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NODE_TYPES, type Graph, type GraphNode } from '../../core/graph.js';
import {
  PALETTE_GROUPS, defaultNodeData, fieldGroups, isFullGraph, mergePlan, nextNodeId, nodeFieldErrors, problemsByNode, problemsFromError,
} from '../../web-components/src/lib/nodes.js';

const Nodes = suite('web/nodes');

Nodes('palette :: four groups hold every node type exactly once', () => {
  assert.equal(PALETTE_GROUPS.map((g) => g.name), ['Agents', 'Control Flow', 'Memory', 'Notifications']);
  const types = PALETTE_GROUPS.flatMap((g) => g.items.map((i) => i.type));
  assert.equal([...types].sort(), [...NODE_TYPES].sort());
  assert.equal(PALETTE_GROUPS[0]!.items.map((i) => i.type), ['specialistAgent', 'supervisorAgent', 'smartSupervisor', 'reportWriter']);
  assert.equal(PALETTE_GROUPS[1]!.items.map((i) => i.type), ['humanApproval', 'conditional', 'aggregator']);
});

Nodes('validation :: a fresh node asks for Label and Objective', () => {
  for (const type of NODE_TYPES) {
    const n: GraphNode = { id: 'n', type, data: defaultNodeData(type) };
    const errs = nodeFieldErrors(n);
    assert.is(errs.label, 'Label is required', type);
    assert.is(errs.objective, 'Objective is required', type);
  }
});

Nodes('validation :: filled required fields clear the messages; type-specific checks remain', () => {
  const ok: GraphNode = { id: 'a', type: 'specialistAgent', data: { ...defaultNodeData('specialistAgent'), label: 'Build', objective: 'Build it' } };
  assert.equal(nodeFieldErrors(ok), {});
  const hook: GraphNode = { id: 'w', type: 'webhook', data: { ...defaultNodeData('webhook'), label: 'Notify', objective: 'Tell chat' } };
  assert.ok(nodeFieldErrors(hook).url);
  const gate: GraphNode = { id: 'g', type: 'humanApproval', data: { ...defaultNodeData('humanApproval'), label: 'Gate', objective: 'Review', timeoutHours: 0 } };
  assert.ok(nodeFieldErrors(gate).timeoutHours);
  const blank: GraphNode = { id: 'b', type: 'specialistAgent', data: { ...ok.data, label: '   ' } };
  assert.is(nodeFieldErrors(blank).label, 'Label is required');
});

Nodes('inspector :: field groups follow the type', () => {
  assert.equal(fieldGroups('specialistAgent'), ['basics', 'agent']);
  assert.equal(fieldGroups('smartSupervisor'), ['basics', 'agent', 'supervisor']);
  assert.equal(fieldGroups('humanApproval'), ['basics', 'approval']);
  assert.equal(fieldGroups('conditional'), ['basics', 'condition']);
  assert.equal(fieldGroups('webhook'), ['basics', 'webhook']);
  assert.equal(fieldGroups('memoryWrite'), ['basics', 'memory']);
  assert.equal(defaultNodeData('humanApproval').allowedActions, ['approve', 'reject', 'request_revision']);
  assert.is(defaultNodeData('humanApproval').timeoutHours, 24);
  assert.is(defaultNodeData('supervisorAgent').delegationStrategy, 'sequential_delegation');
});

Nodes('ids :: new node ids never collide', () => {
  const g: Graph = { nodes: [{ id: 'webhook-1', type: 'webhook', data: { label: 'a', objective: 'b' } }], edges: [] };
  assert.is(nextNodeId(g, 'webhook'), 'webhook-2');
  assert.is(nextNodeId(g, 'aggregator'), 'aggregator-1');
});

Nodes('422 :: server problems are parsed and grouped per node', () => {
  const probs = problemsFromError({ problems: [{ node_id: 'a', field: 'label', message: "node 'a': Label is required" }, { message: 'a workflow needs at least one node' }, 'junk', { node_id: 3 }] });
  assert.is(probs.length, 2);
  const by = problemsByNode(probs);
  assert.is(by.get('a')!.length, 1);
  assert.is(by.get('')![0]!.message, 'a workflow needs at least one node');
  assert.equal(problemsFromError(undefined), []);
});

Nodes('planning :: re-planning replaces only the supervisor’s generated nodes and edges, manual ones stay', () => {
  const sup: GraphNode = { id: 'sup', type: 'smartSupervisor', data: { label: 'S', objective: 'o' } };
  const manual: GraphNode = { id: 'manual', type: 'specialistAgent', data: { label: 'M', objective: 'o' } };
  const oldGen: GraphNode = { id: 'old', type: 'specialistAgent', data: { label: 'O', objective: 'o', generatedBy: 'sup' } };
  const g: Graph = {
    nodes: [sup, manual, oldGen],
    edges: [
      { id: 'e1', source: 'sup', target: 'manual' },
      { id: 'e2', source: 'sup', target: 'old', data: { generatedBy: 'sup' } },
    ],
  };
  const merged = mergePlan(g, 'sup', {
    nodes: [{ id: 'new1', type: 'specialistAgent', data: { label: 'N', objective: 'o' } }],
    edges: [{ id: 'e3', source: 'sup', target: 'new1' }, { id: 'e4', source: 'new1', target: 'ghost' }],
  });
  assert.equal(merged.nodes.map((n) => n.id), ['sup', 'manual', 'new1']);
  assert.is(merged.nodes[2]!.data.generatedBy, 'sup');
  assert.equal(merged.edges.map((e) => e.id), ['e1', 'e3']);
  assert.is(merged.edges[1]!.data?.generatedBy, 'sup');
  // The server answers the whole merged graph: used as is. A bare subgraph still needs merging.
  assert.ok(isFullGraph(g, 'sup', { nodes: [sup, manual, { id: 'new1' }] }));
  assert.not.ok(isFullGraph(g, 'sup', { nodes: [{ id: 'new1' }] }));
  assert.not.ok(isFullGraph(g, 'sup', { nodes: [sup, { id: 'new1' }] }), 'a manual node missing means a subgraph');
  assert.not.ok(isFullGraph(g, 'sup', { nodes: 'nope' }));
});

Nodes.run();
