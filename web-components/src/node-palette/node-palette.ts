/**
 * <wf-node-palette>: the builder's palette, grouped Agents / Control Flow / Memory / Notifications. Each type is
 * a button: drag it onto the canvas (HTML5 drag and drop carrying NODE_DRAG_TYPE), or press Enter / click to
 * add it, which emits `node-add` with the type.
 */
import { html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { PALETTE_GROUPS } from '../lib/nodes.js';
import { LightElement } from '../state.js';

export const NODE_DRAG_TYPE = 'application/x-wfctl-node';
/** A quiet marker colour per group (lane colours on the canvas depend on depth, not on type). */
const GROUP_COLOUR: Record<string, string> = { Agents: '#7c3aed', 'Control Flow': '#0891b2', Memory: '#d97706', Notifications: '#64748b' };

@customElement('wf-node-palette')
export class WfNodePalette extends LightElement {
  override render(): unknown {
    return html`<aside class="palette" aria-label="Node palette">
      <h2>Palette</h2>
      <p class="hint">Drag onto the canvas, or press Enter.</p>
      ${PALETTE_GROUPS.map(
        (g) => html`<section class="palette-group" aria-label=${g.name}>
          <h3>${g.name}</h3>
          ${g.items.map(
            (i) => html`<button class="palette-item" draggable="true" data-type=${i.type} title=${i.description}
              @dragstart=${(e: DragEvent) => {
                e.dataTransfer?.setData(NODE_DRAG_TYPE, i.type);
                e.dataTransfer?.setData('text/plain', i.type);
                if (e.dataTransfer) e.dataTransfer.effectAllowed = 'copy';
              }}
              @click=${() => this.dispatchEvent(new CustomEvent('node-add', { detail: i.type, bubbles: true }))}><span class="palette-swatch" style="background:${GROUP_COLOUR[g.name]}"></span>${i.label}</button>`,
          )}
        </section>`,
      )}
    </aside>`;
  }
}
