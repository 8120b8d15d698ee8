/**
 * Supervisor planning (spec §4 "Planning"), the pure half: the prompts sent to the supervisor's agent, JSON
 * extraction from its reply, and validation of the plan with messages a person can act on. Turning a valid
 * plan into graph elements and merging them into a workflow lives in core/plan-graph.ts.
 */
import { WfError } from './errors.js';
import { findCycle, type NodeData } from './graph.js';

/** One specialist the supervisor wants: its id is local to the plan (depends_on refers to it). */
export interface Subtask {
  id: string;
  label: string;
  role?: string;
  objective: string;
  depends_on: string[];
  systemInstructions?: string;
}

/** An optional gate or memory write the agent planned; `after` names the subtasks it covers. */
export interface PlannedExtra {
  label: string;
  objective: string;
  after?: string[];
  // humanApproval
  noteRequired?: boolean;
  timeoutHours?: number;
  // memoryWrite
  key?: string;
}

export interface Plan {
  subtasks: Subtask[];
  approval?: PlannedExtra;
  memory?: PlannedExtra;
}

/** What tune-node may change; nothing else of a node is ever touched by it (rule 7). */
export const TUNABLE_FIELDS = ['label', 'role', 'objective', 'systemInstructions'] as const;
export type Tuned = { label: string; role: string; objective: string; systemInstructions: string };

/** Plans beyond this many subtasks are refused: no builder view or run stays readable past it. */
export const MAX_SUBTASKS = 40;
/** Text fields of a plan are capped so a runaway reply cannot bloat the stored workflow. */
const MAX_TEXT = 20_000;

const PLAN_SHAPE = `{
  "subtasks": [
    { "id": "short-kebab-id", "label": "Short title", "role": "one-line role of the specialist",
      "objective": "what this specialist must achieve, concrete enough to act on alone",
      "depends_on": ["ids of subtasks that must finish first"],
      "systemInstructions": "optional extra instructions" }
  ],
  "approval": { "label": "Review", "objective": "what a human reviewer checks", "after": ["subtask ids it covers"] },
  "memory": { "label": "Remember", "objective": "what to record", "key": "memory-key", "after": ["subtask ids"] }
}`;

const PLAN_RULES = [
  'Rules:',
  '- 1 to 8 subtasks are usual; each is done by one specialist agent working in this repository.',
  '- "depends_on" may only name ids of other subtasks in this plan, and must not form a cycle. Subtasks without dependencies start first and may run in parallel.',
  '- "approval" and "memory" are optional: add "approval" only when a human should review before the workflow goes on, and "memory" only when a result must be remembered for later runs. Leave "after" out to cover every final subtask.',
  '- Read the repository as needed, but do not change any file: you only plan.',
  '- Answer with the JSON object alone, in one ```json fenced block.',
].join('\n');

export interface PlanPromptInput {
  objective: string;
  systemInstructions?: string;
  /** Refinement only: the current plan as subtasks, and what the person wants changed. */
  current?: Plan;
  feedback?: string;
  /** Refinement only: subtask ids that manual nodes connect to; their ids must stay. */
  pinned?: string[];
}

/** The prompt asking the supervisor's agent for a new plan, or for a refined one when `current` and `feedback` are given. */
export function planPrompt(input: PlanPromptInput): string {
  const parts: string[] = ['You are the supervisor of a team of software engineering agents. Break the objective below into subtasks for specialist agents.'];
  if (input.systemInstructions?.trim()) parts.push(input.systemInstructions.trim());
  parts.push(`Objective:\n${input.objective.trim()}`);
  if (input.current && input.feedback !== undefined) {
    parts.push(`Current plan:\n${JSON.stringify(input.current, null, 2)}`);
    parts.push(`Revise the current plan according to this feedback, keeping what it does not ask to change:\n${input.feedback.trim()}`);
    if (input.pinned?.length) parts.push(`Keep these subtask ids (other steps of the workflow connect to them): ${input.pinned.join(', ')}.`);
  }
  parts.push(`Answer with JSON of this shape:\n${PLAN_SHAPE}`);
  parts.push(PLAN_RULES);
  return parts.join('\n\n');
}

/** The prompt asking the agent to rewrite one node's label, role, objective and systemInstructions. */
export function tunePrompt(node: Partial<NodeData>, instruction: string): string {
  const current: Record<string, string> = {};
  for (const f of TUNABLE_FIELDS) current[f] = typeof node[f] === 'string' ? (node[f] as string) : '';
  return [
    'You refine one step of a multi-agent software workflow. Rewrite its fields according to the instruction.',
    `Current fields:\n${JSON.stringify(current, null, 2)}`,
    `Instruction:\n${instruction.trim()}`,
    'Answer with one JSON object with exactly the keys "label", "role", "objective" and "systemInstructions" (strings; keep a field unchanged when the instruction does not concern it), in one ```json fenced block. Do not change any file.',
  ].join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------
// Extraction

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Bracket-scanning work allowed per reply (characters visited). Each `{` or `[` starts a scan, so a long reply
 * full of brackets would otherwise cost quadratic time; real plans are found long before this.
 */
const SCAN_BUDGET = 20_000_000;

/** Candidate JSON texts in a reply, lazily: fenced blocks first (```json before plain ```), then balanced {…}/[…] spans. */
function* candidates(reply: string): Generator<string> {
  const fence = /```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)```/g;
  const fenced: Array<{ lang: string; body: string }> = [];
  for (let m = fence.exec(reply); m; m = fence.exec(reply)) fenced.push({ lang: m[1].toLowerCase(), body: m[2] });
  for (const f of fenced) if (f.lang === 'json') yield f.body;
  for (const f of fenced) if (f.lang !== 'json') yield f.body;
  const budget = { left: SCAN_BUDGET };
  for (let i = 0; i < reply.length && budget.left > 0; i++) {
    const c = reply[i];
    if (c !== '{' && c !== '[') continue;
    const end = balancedEnd(reply, i, budget);
    if (end > i) yield reply.slice(i, end + 1);
  }
}

/** Index of the bracket closing the one at `start` (string-aware), or -1. Spends `budget.left`. */
function balancedEnd(text: string, start: number, budget: { left: number }): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    if (--budget.left <= 0) return -1;
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/**
 * The first JSON value in `reply` (fenced or bare inside prose) that `accept` takes, or undefined.
 * Spans that do not parse, or parse to something else (an example object in the prose), are skipped.
 */
export function extractJson(reply: string, accept: (v: unknown) => boolean): unknown {
  for (const text of candidates(reply)) {
    let v: unknown;
    try {
      v = JSON.parse(text.trim());
    } catch {
      continue;
    }
    if (accept(v)) return v;
  }
  return undefined;
}

/** Plan-looking: an object with a `subtasks` (or `tasks`) array, or an array of objects with an id. */
export function looksLikePlan(v: unknown): boolean {
  if (isObj(v)) return Array.isArray(v.subtasks) || Array.isArray(v.tasks);
  return Array.isArray(v) && v.length > 0 && v.every((s) => isObj(s) && 'id' in s);
}

const quote = (s: string, max = 80) => JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s);

/** A reply's plan, extracted and validated; throws PLAN_INVALID (422) saying what is wrong and where. */
export function parsePlanReply(reply: string): Plan {
  const raw = extractJson(reply, looksLikePlan);
  if (raw === undefined) {
    const excerpt = reply.trim() ? ` The reply began: ${quote(reply.trim())}` : ' The reply was empty.';
    throw new WfError('PLAN_INVALID', `the planner's reply contains no JSON plan (expected an object with a "subtasks" list, fenced or bare).${excerpt}`);
  }
  return validatePlan(raw);
}

// ---------------------------------------------------------------------------------------------------------
// Validation

function text(v: unknown, where: string, field: string, required: boolean, problems: string[]): string | undefined {
  if (v === undefined || v === null || (typeof v === 'string' && !v.trim() && !required)) return undefined;
  if (typeof v !== 'string') {
    problems.push(`${where}: "${field}" must be a string`);
    return undefined;
  }
  if (!v.trim()) {
    problems.push(`${where} has an empty "${field}"`);
    return undefined;
  }
  if (v.length > MAX_TEXT) problems.push(`${where}: "${field}" is longer than ${MAX_TEXT} characters`);
  return v.trim();
}

function idList(v: unknown, where: string, field: string, problems: string[]): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x.trim())) {
    problems.push(`${where}: "${field}" must be a list of subtask ids`);
    return undefined;
  }
  return [...new Set(list.map((x: string) => x.trim()))];
}

/**
 * Checks a parsed plan: subtasks present with id, label and objective; ids unique; every depends_on and
 * `after` names a subtask of the plan; no dependency cycle. Throws PLAN_INVALID naming every problem.
 */
export function validatePlan(raw: unknown): Plan {
  const obj = isObj(raw) ? raw : { subtasks: raw };
  const list = obj.subtasks ?? obj.tasks;
  const problems: string[] = [];
  if (!Array.isArray(list) || list.length === 0) throw new WfError('PLAN_INVALID', 'the plan has no subtasks: "subtasks" must be a non-empty list');
  if (list.length > MAX_SUBTASKS) throw new WfError('PLAN_INVALID', `the plan has ${list.length} subtasks; at most ${MAX_SUBTASKS} are allowed`);

  const subtasks: Subtask[] = [];
  const seen = new Set<string>();
  list.forEach((s, i) => {
    const at = `subtask #${i + 1}`;
    if (!isObj(s)) return problems.push(`${at} is not an object`);
    const id = typeof s.id === 'number' ? String(s.id) : text(s.id, at, 'id', true, problems);
    if (s.id === undefined) problems.push(`${at} has no "id"`);
    const where = id ? `subtask '${id}'` : at;
    if (id && seen.has(id)) problems.push(`subtask id '${id}' is used twice`);
    if (id) seen.add(id);
    const label = text(s.label ?? s.title ?? s.name, where, 'label', true, problems);
    const objective = text(s.objective ?? s.description, where, 'objective', true, problems);
    if ((s.label ?? s.title ?? s.name) === undefined) problems.push(`${where} has no "label"`);
    if ((s.objective ?? s.description) === undefined) problems.push(`${where} has no "objective"`);
    const role = text(s.role, where, 'role', false, problems);
    const systemInstructions = text(s.systemInstructions ?? s.system_instructions, where, 'systemInstructions', false, problems);
    const deps = idList(s.depends_on ?? s.dependsOn, where, 'depends_on', problems) ?? [];
    if (id && label && objective) subtasks.push({ id, label, objective, depends_on: deps, ...(role ? { role } : {}), ...(systemInstructions ? { systemInstructions } : {}) });
  });
  if (problems.length) fail(problems);

  for (const s of subtasks) {
    for (const d of s.depends_on) {
      if (d === s.id) problems.push(`subtask '${s.id}' depends on itself`);
      else if (!seen.has(d)) problems.push(`subtask '${s.id}' depends on '${d}', which is not a subtask of the plan (subtasks: ${[...seen].join(', ')})`);
    }
  }
  if (problems.length) fail(problems);
  const cycle = findCycle(subtasks.map((s) => s.id), subtasks.flatMap((s) => s.depends_on.map((d) => ({ source: d, target: s.id }))));
  if (cycle) fail([`the subtasks' dependencies form a cycle: ${[...cycle, cycle[0]].join(' → ')}; remove one of these depends_on entries`]);

  const plan: Plan = { subtasks };
  for (const kind of ['approval', 'memory'] as const) {
    const extra = extraOf(obj[kind], kind, seen, problems);
    if (extra) plan[kind] = extra;
  }
  if (problems.length) fail(problems);
  return plan;
}

function extraOf(v: unknown, kind: 'approval' | 'memory', ids: Set<string>, problems: string[]): PlannedExtra | undefined {
  if (v === undefined || v === null || v === false) return undefined;
  const o = v === true ? {} : v;
  if (!isObj(o)) {
    problems.push(`"${kind}" must be an object`);
    return undefined;
  }
  const where = `the ${kind === 'approval' ? 'approval gate' : 'memory node'}`;
  const label = text(o.label, where, 'label', false, problems) ?? (kind === 'approval' ? 'Human review' : 'Record results');
  const objective = text(o.objective, where, 'objective', false, problems) ?? (kind === 'approval' ? 'Review the specialists\' results before the workflow goes on.' : 'Record the specialists\' results in the run memory.');
  const after = idList(o.after ?? o.covers ?? o.depends_on, where, 'after', problems);
  // `approval` may be named by the memory node: it then sits after the gate.
  for (const a of after ?? []) if (!ids.has(a) && !(kind === 'memory' && a === 'approval')) problems.push(`${where} covers '${a}', which is not a subtask of the plan`);
  const out: PlannedExtra = { label, objective, ...(after?.length ? { after } : {}) };
  if (kind === 'approval') {
    if (o.noteRequired !== undefined && typeof o.noteRequired !== 'boolean') problems.push(`${where}: "noteRequired" must be true or false`);
    else if (o.noteRequired !== undefined) out.noteRequired = o.noteRequired as boolean;
    if (o.timeoutHours !== undefined && (typeof o.timeoutHours !== 'number' || !(o.timeoutHours > 0) || o.timeoutHours > 24 * 365)) problems.push(`${where}: "timeoutHours" must be a number of hours above 0`);
    else if (o.timeoutHours !== undefined) out.timeoutHours = o.timeoutHours as number;
  } else {
    const key = text(o.key, where, 'key', false, problems);
    if (key) out.key = key;
  }
  return out;
}

function fail(problems: string[]): never {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: ${problems.slice(1, 4).join('; ')}${problems.length > 4 ? '; …' : ''})` : '';
  throw new WfError('PLAN_INVALID', `the plan is invalid: ${problems[0]}${more}`, { problems });
}

// ---------------------------------------------------------------------------------------------------------
// Tune-node

/** The tune-node reply: exactly the four fields; a field the agent left out keeps the node's current value. */
export function parseTuneReply(reply: string, current: Partial<NodeData>): Tuned {
  const raw = extractJson(reply, (v) => isObj(v) && TUNABLE_FIELDS.some((f) => f in v)) as Record<string, unknown> | undefined;
  if (!raw) throw new WfError('PLAN_INVALID', `the agent's reply contains no JSON object with "label", "role", "objective" or "systemInstructions". The reply began: ${quote(reply.trim())}`);
  const out = {} as Tuned;
  const problems: string[] = [];
  for (const f of TUNABLE_FIELDS) {
    const v = raw[f] ?? current[f] ?? '';
    if (typeof v !== 'string') problems.push(`"${f}" must be a string`);
    else if ((f === 'label' || f === 'objective') && !v.trim()) problems.push(`"${f}" must not be empty`);
    else if (v.length > MAX_TEXT) problems.push(`"${f}" is longer than ${MAX_TEXT} characters`);
    else out[f] = v.trim();
  }
  if (problems.length) throw new WfError('PLAN_INVALID', `the tuned node is invalid: ${problems.join('; ')}`, { problems });
  return out;
}

/** A node's data with the tuned fields applied; every other key is kept exactly as it was. */
export function applyTune<T extends Partial<NodeData>>(data: T, tuned: Tuned): T {
  return { ...data, ...tuned };
}
