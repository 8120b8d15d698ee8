/**
 * The builder's cytoscape canvas: taps select (Shift-tap on a second node connects the selected node to it),
 * dragging a node reports its new position, and sync() pushes the graph in (a rebuild when the structure
 * changed, a data refresh otherwise), fitting the view on first show and whenever a node lies outside it.
 */
import cytoscape from 'cytoscape';
import type { Graph, GraphProblem } from '../../../core/graph.js';
import { graphToElements } from '../lib/graph-map.js';
import { nodeFieldErrors } from '../lib/nodes.js';
import { CY_STYLE, nodeDisplay } from '../graph-view/cy-style.js';

export interface CanvasEvents {
  /** The current selection, read when a Shift-tap asks to connect. */
  selectedNode(): string | undefined;
  select(node: string | undefined, edge: string | undefined): void;
  connect(source: string, target: string): void;
  moved(id: string, position: { x: number; y: number }): void;
}

export class BuilderCanvas {
  readonly cy: cytoscape.Core;
  private shape = '';

  constructor(container: HTMLElement, events: CanvasEvents) {
    const cy = cytoscape({ container, style: CY_STYLE, elements: [], minZoom: 0.2, maxZoom: 2.5, boxSelectionEnabled: false });
    this.cy = cy;
    cy.on('tap', 'node', (e) => {
      const id = e.target.id() as string;
      const from = events.selectedNode();
      if ((e.originalEvent as MouseEvent | undefined)?.shiftKey && from && from !== id) return events.connect(from, id);
      events.select(id, undefined);
    });
    cy.on('tap', 'edge', (e) => events.select(undefined, e.target.id()));
    cy.on('tap', (e) => {
      if (e.target === cy) events.select(undefined, undefined);
    });
    cy.on('dragfree', 'node', (e) => {
      const p = e.target.position();
      events.moved(e.target.id(), { x: Math.round(p.x), y: Math.round(p.y) });
    });
    new ResizeObserver(() => cy.resize()).observe(container);
  }

  /** Forget the drawn structure (a different workflow is loaded): the next sync rebuilds and fits. */
  reset(): void {
    this.shape = '';
  }

  destroy(): void {
    this.cy.destroy();
  }

  sync(graph: Graph, problems: readonly GraphProblem[], selectedNode?: string, selectedEdge?: string): void {
    const cy = this.cy;
    const invalid = new Set<string>();
    for (const n of graph.nodes) if (Object.keys(nodeFieldErrors(n)).length) invalid.add(n.id);
    for (const p of problems) if (p.node_id) invalid.add(p.node_id);
    const els = graphToElements(graph, { layout: 'stored', invalid }).map((e) => (e.group === 'nodes' ? { ...e, data: { ...e.data, display: nodeDisplay(e.data) } } : e));
    const shape = JSON.stringify([graph.nodes.map((n) => [n.id, n.position?.x, n.position?.y]), graph.edges.map((e) => [e.id, e.source, e.target, e.sourceHandle])]);
    if (shape !== this.shape) {
      const first = this.shape === '';
      cy.elements().remove();
      cy.add(els);
      const ext = cy.extent();
      const bb = cy.nodes().boundingBox({});
      const outside = cy.nodes().length > 0 && (bb.x1 < ext.x1 || bb.x2 > ext.x2 || bb.y1 < ext.y1 || bb.y2 > ext.y2);
      if ((first || outside) && graph.nodes.length) {
        cy.fit(undefined, 60);
        if (cy.zoom() > 1) {
          cy.zoom(1);
          cy.center();
        }
      }
      this.shape = shape;
    } else {
      for (const e of els) cy.$id(e.data.id).data(e.data);
    }
    cy.elements().unselect();
    if (selectedNode) cy.$id(selectedNode).select();
    if (selectedEdge) cy.$id(selectedEdge).select();
  }

  /** Model position of a drop at client coordinates. */
  modelPoint(clientX: number, clientY: number): { x: number; y: number } {
    const rect = this.cy.container()!.getBoundingClientRect();
    const pan = this.cy.pan();
    const zoom = this.cy.zoom();
    return { x: Math.round((clientX - rect.left - pan.x) / zoom), y: Math.round((clientY - rect.top - pan.y) / zoom) };
  }
}
