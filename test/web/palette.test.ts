import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LANE_PALETTE, laneColour, statusStyle } from '../../web-components/src/lib/palette.js';

const Palette = suite('web/palette');

Palette('palette :: the spec palette, in its order, indexed by depth modulo 8', () => {
  assert.equal([...LANE_PALETTE], ['#7c3aed', '#2563eb', '#0891b2', '#059669', '#d97706', '#dc2626', '#7c3aed', '#0f766e']);
  for (let d = 0; d < 40; d++) assert.is(laneColour(d), LANE_PALETTE[d % 8]);
  assert.is(laneColour(8), '#7c3aed');
  assert.is(laneColour(15), '#0f766e');
});

Palette('palette :: odd depths are floored or treated as 0', () => {
  assert.is(laneColour(-3), '#7c3aed');
  assert.is(laneColour(Number.NaN), '#7c3aed');
  assert.is(laneColour(2.7), '#0891b2');
});

Palette('palette :: every run, step and approval status has a label; unknown ones show their name', () => {
  for (const s of ['queued', 'running', 'waiting_approval', 'completed', 'failed', 'cancelled', 'pending', 'skipped', 'approved', 'rejected', 'revision_requested', 'expired']) {
    const st = statusStyle(s);
    assert.ok(st.label && st.colour.startsWith('#') && st.background.startsWith('#'), s);
  }
  assert.is(statusStyle('waiting_approval').label, 'Awaiting approval');
  assert.is(statusStyle('some_new').label, 'some new');
  assert.is(statusStyle(undefined).label, 'Not run');
});

Palette.run();
