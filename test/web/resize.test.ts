import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { DRAWER, LOG_PANEL, STEP_LIST, clampSize, dragSize, keySize } from '../../web-components/src/lib/resize.js';

const Resize = suite('web/resize');

Resize('resize :: the spec bounds: drawer 280–700 px, run log 80–500 px, step strip 40 px', () => {
  assert.equal([DRAWER.min, DRAWER.max], [280, 700]);
  assert.equal([LOG_PANEL.min, LOG_PANEL.max], [80, 500]);
  assert.is(STEP_LIST.folded, 40);
  assert.ok(DRAWER.initial >= DRAWER.min && DRAWER.initial <= DRAWER.max);
  assert.ok(LOG_PANEL.initial >= LOG_PANEL.min && LOG_PANEL.initial <= LOG_PANEL.max);
});

Resize('resize :: any drag stays within the bounds', () => {
  fc.assert(
    fc.property(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: 280, max: 700 }), (p0, p1, start) => {
      const w = dragSize(start, p0, p1, DRAWER);
      const h = dragSize(Math.min(500, Math.max(80, start - 200)), p0, p1, LOG_PANEL);
      return w >= 280 && w <= 700 && h >= 80 && h <= 500;
    }),
    { numRuns: 500 },
  );
});

Resize('resize :: dragging the left / top handle towards the outside grows the panel', () => {
  assert.is(dragSize(400, 1000, 900, DRAWER), 500);
  assert.is(dragSize(400, 1000, 0, DRAWER), 700);
  assert.is(dragSize(400, 1000, 1900, DRAWER), 280);
  assert.is(dragSize(180, 600, 560, LOG_PANEL), 220);
  assert.is(dragSize(180, 600, 5000, LOG_PANEL), 80);
  assert.is(clampSize(Number.NaN, DRAWER), DRAWER.initial);
});

Resize('resize :: arrow keys nudge and Home / End jump to the bounds', () => {
  assert.is(keySize(400, 'ArrowLeft', DRAWER), 416);
  assert.is(keySize(400, 'ArrowRight', DRAWER), 384);
  assert.is(keySize(180, 'ArrowUp', LOG_PANEL), 196);
  assert.is(keySize(690, 'ArrowLeft', DRAWER), 700);
  assert.is(keySize(400, 'Home', DRAWER), 280);
  assert.is(keySize(400, 'End', DRAWER), 700);
  assert.is(keySize(400, 'a', DRAWER), 400);
});

Resize.run();
