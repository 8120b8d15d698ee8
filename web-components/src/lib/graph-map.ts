/**
 * Graph → cytoscape elements. Positions come from a layout by depth (columns left to right, one per depth,
 * nodes of a column stacked and centred) unless the builder keeps the stored positions; every node carries its
 * lane colour (palette[depth % 8]), its status and whether a planner generated it, for the stylesheet.
 */
import { depths, type Graph } from '../../../core/graph.js';
import { laneColour, statusStyle } from './palette.js';
import { typeLabel } from './nodes.js';

export const COLUMN_GAP = 230;
export const ROW_GAP = 110;

export interface NodeElement {
  group: 'nodes';
  data: {
    id: string;
    label: string;
    type: string;
    typeLabel: string;
    depth: number;
    lane: string;
    status: string;
    statusLabel: string;
    statusColour: string;
    generated: 'yes' | 'no';
    invalid: 'yes' | 'no';
  };
  position: { x: number; y: number };
}
export interface EdgeElement {
  group: 'edges';
  data: { id: string; source: string; target: string; label: string; generated: 'yes' | 'no' };
}

export interface MapOptions {
  /** Node id → step status (run page). */
  statuses?: Record<string, string>;
  /** Node ids with validation problems (builder). */
  invalid?: ReadonlySet<string>;
  /** 'depth' lays out by depth; 'stored' keeps node.position when present (builder). */
  layout?: 'depth' | 'stored';
}

/** Depth per node; a graph with a cycle (possible mid-edit in the builder) puts every node at depth 0. */
export function safeDepths(graph: Graph): Map<string, number> {
  try {
    return depths(graph);
  } catch {
    return new Map(graph.nodes.map((n) => [n.id, 0]));
  }
}

/** Positions by depth: x by column, y centred around 0 within the column, in graph order. */
export function depthLayout(graph: Graph, depth: Map<string, number> = safeDepths(graph)): Map<string, { x: number; y: number }> {
  const columns = new Map<number, string[]>();
  for (const n of graph.nodes) {
    const d = depth.get(n.id) ?? 0;
    columns.set(d, [...(columns.get(d) ?? []), n.id]);
  }
  const pos = new Map<string, { x: number; y: number }>();
  for (const [d, ids] of columns) {
    ids.forEach((id, i) => pos.set(id, { x: d * COLUMN_GAP, y: (i - (ids.length - 1) / 2) * ROW_GAP }));
  }
  return pos;
}

export function graphToElements(graph: Graph, opts: MapOptions = {}): Array<NodeElement | EdgeElement> {
  const depth = safeDepths(graph);
  const auto = depthLayout(graph, depth);
  const nodes: NodeElement[] = graph.nodes.map((n) => {
    const d = depth.get(n.id) ?? 0;
    const status = opts.statuses?.[n.id] ?? '';
    const st = statusStyle(status || undefined);
    const stored = n.position && Number.isFinite(n.position.x) && Number.isFinite(n.position.y) ? n.position : undefined;
    return {
      group: 'nodes',
      data: {
        id: n.id,
        label: n.data?.label?.trim() || n.id,
        type: n.type,
        typeLabel: typeLabel(n.type),
        depth: d,
        lane: laneColour(d),
        status,
        statusLabel: status ? st.label : '',
        statusColour: status ? st.colour : '#94a3b8',
        generated: n.data?.generatedBy ? 'yes' : 'no',
        invalid: opts.invalid?.has(n.id) ? 'yes' : 'no',
      },
      position: opts.layout === 'stored' && stored ? { ...stored } : auto.get(n.id)!,
    };
  });
  const ids = new Set(graph.nodes.map((n) => n.id));
  const edges: EdgeElement[] = graph.edges
    .filter((e) => ids.has(e.source) && ids.has(e.target))
    .map((e) => ({
      group: 'edges',
      data: { id: e.id, source: e.source, target: e.target, label: e.sourceHandle === 'true' || e.sourceHandle === 'false' ? e.sourceHandle : '', generated: e.data?.generatedBy ? 'yes' : 'no' },
    }));
  return [...nodes, ...edges];
}

/** Latest step status per node (highest attempt wins; later rows win ties). */
export function latestStepStatus(steps: ReadonlyArray<{ node_id: string; status: string; attempt?: number }>): Record<string, string> {
  const best: Record<string, { status: string; attempt: number }> = {};
  for (const s of steps) {
    const a = s.attempt ?? 1;
    const cur = best[s.node_id];
    if (!cur || a >= cur.attempt) best[s.node_id] = { status: s.status, attempt: a };
  }
  return Object.fromEntries(Object.entries(best).map(([k, v]) => [k, v.status]));
}
