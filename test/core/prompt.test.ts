import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assemblePrompt, OUTPUT_INSTRUCTIONS } from '../../core/prompt.js';

const Prompt = suite('core/prompt assemblePrompt');

Prompt('order :: role, skills in list order, systemInstructions, objective, context, output instructions', () => {
  const p = assemblePrompt(
    { id: 'n1', data: { label: 'Review', objective: 'OBJECTIVE-TEXT', role: 'ROLE-TEXT', systemInstructions: 'SYSTEM-TEXT' } },
    [{ name: 'first', prompt_template: 'SKILL-ONE' }, { name: 'second', prompt_template: 'SKILL-TWO' }],
    [{ node_id: 'a', label: 'A', level: 0, scope: 'workflow', team: 'a', summary: 'CONTEXT-TEXT' }],
  );
  const order = ['ROLE-TEXT', 'SKILL-ONE', 'SKILL-TWO', 'SYSTEM-TEXT', 'OBJECTIVE-TEXT', 'CONTEXT-TEXT', OUTPUT_INSTRUCTIONS];
  const at = order.map((s) => p.indexOf(s));
  assert.ok(at.every((i) => i >= 0), `all parts present: ${at}`);
  assert.equal([...at].sort((x, y) => x - y), at);
});

Prompt('optional parts :: missing role, skills, instructions and context leave no empty sections', () => {
  const p = assemblePrompt({ id: 'n1', data: { label: 'L', objective: 'Do it' } }, [], []);
  assert.not.match(p, /Skill:|Context from earlier steps/);
  assert.match(p, /Objective:\nDo it/);
  assert.ok(p.endsWith(OUTPUT_INSTRUCTIONS));
});

Prompt.run();
