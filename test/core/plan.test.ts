import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WfError } from '../../core/errors.js';
import { applyTune, extractJson, looksLikePlan, parsePlanReply, parseTuneReply, planPrompt, tunePrompt, validatePlan, type Plan } from '../../core/plan.js';

const PLAN = {
  subtasks: [
    { id: 'design', label: 'Design', role: 'architect', objective: 'Design the API', depends_on: [] },
    { id: 'build', label: 'Build', role: 'developer', objective: 'Implement it', depends_on: ['design'] },
    { id: 'test', label: 'Test', role: 'tester', objective: 'Test it', depends_on: ['build'], systemInstructions: 'use uvu' },
  ],
};

/** The PLAN_INVALID message a call throws (fails the test when it does not throw one). */
function planError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.instance(e, WfError);
    assert.is((e as WfError).code, 'PLAN_INVALID');
    assert.is((e as WfError).statusCode, 422);
    return (e as WfError).message;
  }
  assert.unreachable('expected PLAN_INVALID');
  return '';
}

const Extract = suite('core/plan extract');

Extract('extract :: a fenced json block', () => {
  const reply = `Here is my plan.\n\n\`\`\`json\n${JSON.stringify(PLAN, null, 2)}\n\`\`\`\n\nGood luck.`;
  const plan = parsePlanReply(reply);
  assert.equal(plan.subtasks.map((s) => s.id), ['design', 'build', 'test']);
  assert.equal(plan.subtasks[2].depends_on, ['build']);
  assert.is(plan.subtasks[2].systemInstructions, 'use uvu');
});

Extract('extract :: bare JSON inside prose, with braces in strings and an example object before it', () => {
  const plan = { subtasks: [{ id: 'a', label: 'A {tricky}', objective: 'say "}" then ]', depends_on: [] }] };
  const reply = `I looked at {the repo} and the config {"debug": true}. My plan: ${JSON.stringify(plan)} — that is all.`;
  const got = parsePlanReply(reply);
  assert.equal(got.subtasks, [{ id: 'a', label: 'A {tricky}', objective: 'say "}" then ]', depends_on: [] }]);
});

Extract('extract :: a plain ``` fence and a bare array of subtasks are accepted', () => {
  const reply = 'Plan:\n```\n' + JSON.stringify(PLAN.subtasks) + '\n```';
  assert.equal(parsePlanReply(reply).subtasks.length, 3);
});

Extract('extract :: a json fence is preferred over an earlier unlabelled fence', () => {
  const other = { subtasks: [{ id: 'x', label: 'X', objective: 'x' }] };
  const reply = '```\n' + JSON.stringify(other) + '\n```\n```json\n' + JSON.stringify(PLAN) + '\n```';
  assert.equal(parsePlanReply(reply).subtasks[0].id, 'design');
});

Extract('extract :: no JSON gives a 422 quoting the reply', () => {
  const msg = planError(() => parsePlanReply('I could not make a plan, sorry.'));
  assert.match(msg, /contains no JSON plan/);
  assert.match(msg, /I could not make a plan/);
  assert.match(planError(() => parsePlanReply('   ')), /reply was empty/);
});

Extract('extract :: JSON that is not a plan is not taken for one', () => {
  assert.match(planError(() => parsePlanReply('```json\n{"answer": 42}\n```')), /no JSON plan/);
  assert.is(looksLikePlan([1, 2]), false);
  assert.equal(extractJson('x {"a": [1, {"b": 2}]} y', () => true), { a: [1, { b: 2 }] });
  assert.is(extractJson('x {"a": 1 y', () => true), undefined);
});

Extract('extract :: broken JSON in a fence falls through to a later valid one', () => {
  const reply = '```json\n{"subtasks": [ oops\n```\nthen ' + JSON.stringify(PLAN);
  assert.is(parsePlanReply(reply).subtasks.length, 3);
});

Extract('extract :: a reply full of unbalanced brackets is given up on (bounded work), a fenced plan still wins', () => {
  const noise = '{['.repeat(100_000);
  assert.match(planError(() => parsePlanReply(noise + JSON.stringify(PLAN))), /no JSON plan/);
  assert.is(parsePlanReply(noise + '\n```json\n' + JSON.stringify(PLAN) + '\n```').subtasks.length, 3);
  assert.is(parsePlanReply('{"plan": ' + JSON.stringify(PLAN) + '}').subtasks.length, 3, 'a plan wrapped in another object');
});

const Validate = suite('core/plan validate');

Validate('validate :: unknown depends_on names the subtask and the reference', () => {
  const bad = { subtasks: [{ id: 'a', label: 'A', objective: 'a' }, { id: 'b', label: 'B', objective: 'b', depends_on: ['ghost'] }] };
  const msg = planError(() => validatePlan(bad));
  assert.match(msg, /subtask 'b' depends on 'ghost', which is not a subtask of the plan \(subtasks: a, b\)/);
});

Validate('validate :: a cycle is listed by id', () => {
  const bad = {
    subtasks: [
      { id: 'a', label: 'A', objective: 'a', depends_on: ['c'] },
      { id: 'b', label: 'B', objective: 'b', depends_on: ['a'] },
      { id: 'c', label: 'C', objective: 'c', depends_on: ['b'] },
      { id: 'd', label: 'D', objective: 'd' },
    ],
  };
  const msg = planError(() => validatePlan(bad));
  assert.match(msg, /cycle: a → b → c → a/);
  assert.match(planError(() => validatePlan({ subtasks: [{ id: 'a', label: 'A', objective: 'a', depends_on: ['a'] }] })), /'a' depends on itself/);
});

Validate('validate :: missing fields name the subtask and the field', () => {
  const bad = { subtasks: [{ id: 'a', objective: 'a' }, { label: 'No id', objective: 'x' }, { id: 'c', label: 'C', objective: '  ' }] };
  const e = (() => {
    try {
      validatePlan(bad);
    } catch (err) {
      return err as WfError;
    }
    throw new Error('no error');
  })();
  const problems = (e.details as { problems: string[] }).problems;
  assert.ok(problems.includes(`subtask 'a' has no "label"`), problems.join('\n'));
  assert.ok(problems.includes('subtask #2 has no "id"'), problems.join('\n'));
  assert.ok(problems.includes(`subtask 'c' has an empty "objective"`), problems.join('\n'));
  assert.match(e.message, /^the plan is invalid: subtask 'a' has no "label" \(and 2 more/);
});

Validate('validate :: duplicate ids, wrong types, empty lists', () => {
  assert.match(planError(() => validatePlan({ subtasks: [{ id: 'a', label: 'A', objective: 'a' }, { id: 'a', label: 'B', objective: 'b' }] })), /'a' is used twice/);
  assert.match(planError(() => validatePlan({ subtasks: [{ id: 'a', label: 'A', objective: 'a', depends_on: [3] }] })), /depends_on" must be a list of subtask ids/);
  assert.match(planError(() => validatePlan({ subtasks: [] })), /no subtasks/);
});

Validate('validate :: approval and memory default and name what they cover', () => {
  const plan = validatePlan({ ...PLAN, approval: { after: ['test'], noteRequired: true }, memory: true });
  assert.equal(plan.approval, { label: 'Human review', objective: "Review the specialists' results before the workflow goes on.", after: ['test'], noteRequired: true });
  assert.is(plan.memory?.label, 'Record results');
  assert.match(planError(() => validatePlan({ ...PLAN, approval: { after: ['nope'] } })), /approval gate covers 'nope', which is not a subtask/);
  assert.match(planError(() => validatePlan({ ...PLAN, approval: { timeoutHours: -1 } })), /timeoutHours/);
});

const Prompts = suite('core/plan prompts');

Prompts('prompt :: plan prompt carries objective, instructions and the shape asked for', () => {
  const p = planPrompt({ objective: 'Add login [[fake:answer=x]]', systemInstructions: 'Prefer small steps.' });
  assert.match(p, /Prefer small steps\./);
  assert.match(p, /Objective:\nAdd login \[\[fake:answer=x\]\]/);
  assert.match(p, /"depends_on"/);
  assert.not.match(p, /Current plan/);
});

Prompts('prompt :: refinement carries the current plan, the feedback and the pinned ids', () => {
  const current: Plan = { subtasks: [{ id: 'a', label: 'A', objective: 'a', depends_on: [] }] };
  const p = planPrompt({ objective: 'o', current, feedback: 'split a in two', pinned: ['a'] });
  assert.match(p, /Current plan:\n\{/);
  assert.match(p, /split a in two/);
  assert.match(p, /Keep these subtask ids .*: a\./);
});

Prompts('prompt :: tune prompt shows the four fields and the instruction only', () => {
  const p = tunePrompt({ label: 'L', objective: 'O', model: 'secret-model', role: 'R' }, 'make it shorter');
  assert.match(p, /"systemInstructions": ""/);
  assert.match(p, /make it shorter/);
  assert.not.match(p, /secret-model/);
});

const Tune = suite('core/plan tune');

Tune('tune :: reply rewrites the four fields; apply keeps every other key', () => {
  const data = { label: 'Old', objective: 'old obj', role: 'old role', systemInstructions: 'old si', model: 'm1', skills: ['s'], generatedBy: 'sup', maxIterations: 2 };
  const tuned = parseTuneReply('Sure:\n```json\n{"label":"New","role":"reviewer","objective":"new obj","systemInstructions":"be strict","model":"hacked"}\n```', data);
  assert.equal(tuned, { label: 'New', role: 'reviewer', objective: 'new obj', systemInstructions: 'be strict' });
  const after = applyTune(data, tuned);
  assert.equal(after, { ...data, label: 'New', role: 'reviewer', objective: 'new obj', systemInstructions: 'be strict' });
  assert.is(after.model, 'm1');
});

Tune('tune :: a field left out keeps its value; empty label or no JSON is 422', () => {
  assert.equal(parseTuneReply('{"objective": "only this"}', { label: 'L', objective: 'O' }), { label: 'L', role: '', objective: 'only this', systemInstructions: '' });
  assert.match(planError(() => parseTuneReply('{"label": ""}', { label: 'L', objective: 'O' })), /"label" must not be empty/);
  assert.match(planError(() => parseTuneReply('no idea', { label: 'L', objective: 'O' })), /no JSON object/);
});

Extract.run();
Validate.run();
Prompts.run();
Tune.run();
