/**
 * <wf-graph-view>: the run page's read-only node graph. Cytoscape, laid out by depth (lib/graph-map.ts), each
 * node bordered in its lane colour and labelled with its status. Emits `node-select` with the node id.
 * The cytoscape instance is exposed as `.cy` for tests and debugging.
 */
import { html, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import cytoscape from 'cytoscape';
import type { Graph } from '../../../core/graph.js';
import { graphToElements } from '../lib/graph-map.js';
import { LightElement } from '../state.js';
import { CY_STYLE, nodeDisplay } from './cy-style.js';

@customElement('wf-graph-view')
export class WfGraphView extends LightElement {
  @property({ attribute: false }) graph: Graph | undefined;
  @property({ attribute: false }) statuses: Record<string, string> = {};
  @property({ attribute: false }) selected: string | undefined;
  cy: cytoscape.Core | undefined;
  private shape = '';

  override firstUpdated(): void {
    this.cy = cytoscape({
      container: this.querySelector('.cy') as HTMLElement,
      style: CY_STYLE,
      elements: [],
      minZoom: 0.2,
      maxZoom: 2.5,
      autoungrabify: true,
      boxSelectionEnabled: false,
    });
    this.cy.on('tap', 'node', (e) => this.dispatchEvent(new CustomEvent('node-select', { detail: e.target.id(), bubbles: true })));
    this.sync();
    new ResizeObserver(() => this.cy?.resize()).observe(this);
  }

  override updated(changed: PropertyValues<this>): void {
    if (changed.has('graph') || changed.has('statuses') || changed.has('selected')) this.sync();
  }

  override disconnectedCallback(): void {
    this.cy?.destroy();
    this.cy = undefined;
    super.disconnectedCallback();
  }

  private sync(): void {
    const cy = this.cy;
    if (!cy || !this.graph) return;
    const els = graphToElements(this.graph, { statuses: this.statuses, layout: 'depth' });
    const shape = JSON.stringify([this.graph.nodes.map((n) => n.id), this.graph.edges.map((e) => [e.source, e.target])]);
    if (shape !== this.shape) {
      cy.elements().remove();
      cy.add(els.map((e) => (e.group === 'nodes' ? { ...e, data: { ...e.data, display: nodeDisplay(e.data) } } : e)));
      cy.fit(undefined, 40);
      if (cy.zoom() > 1.2) {
        cy.zoom(1.2);
        cy.center();
      }
      this.shape = shape;
    } else {
      for (const e of els) if (e.group === 'nodes') cy.$id(e.data.id).data({ ...e.data, display: nodeDisplay(e.data) });
    }
    cy.nodes().unselect();
    if (this.selected) cy.$id(this.selected).select();
  }

  override render(): unknown {
    return html`<div class="cy" role="img" aria-label="Node execution graph"></div>`;
  }
}
