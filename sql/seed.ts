/**
 * Built-ins (design.md §4): skills, workflow templates and agent definitions from seed-data/.
 * A built-in whose builtin_key is missing is inserted again (a deleted built-in comes back); an existing row
 * is never overwritten (edits persist). Built-in ids are stable (`builtin-<key>`), so templates can name skills.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../core/paths.js';
import { assertValidGraph, slugify, type Graph } from '../core/graph.js';
import type { DB } from './db.js';

interface SkillSeed {
  key: string;
  name: string;
  description: string;
  compatible_roles: string[];
  prompt_template: string;
}
interface TemplateSeed {
  key: string;
  name: string;
  description: string;
  graph: Graph;
}
interface AgentSeed {
  key: string;
  name: string;
  display_name: string;
  binary: string;
  default_model: string;
  models: string[];
}

export interface SeedData {
  skills: SkillSeed[];
  templates: TemplateSeed[];
  agents: AgentSeed[];
}

export function builtinId(key: string): string {
  return `builtin-${key}`;
}

/** Reads and checks seed-data/ (a broken built-in template is a bug, caught at start-up and by the tests). */
export function loadSeedData(dir = path.join(packageRoot(), 'seed-data')): SeedData {
  const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
  const templatesDir = path.join(dir, 'templates');
  const templates = readdirSync(templatesDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => read<TemplateSeed>(path.join(templatesDir, f)));
  for (const t of templates) {
    try {
      assertValidGraph(t.graph);
    } catch (e) {
      throw new Error(`built-in template '${t.key}' is invalid: ${(e as Error).message}`);
    }
  }
  return {
    skills: read<SkillSeed[]>(path.join(dir, 'skills.json')),
    templates,
    agents: read<AgentSeed[]>(path.join(dir, 'agents.json')),
  };
}

export interface SeedResult {
  skills: number;
  templates: number;
  agents: number;
}

/** Inserts missing built-ins in one write transaction. Returns how many rows were (re)inserted. */
export function seed(db: DB, data: SeedData = loadSeedData()): SeedResult {
  const hasKey = (table: string) => db.prepare(`SELECT 1 FROM ${table} WHERE builtin_key = ?`).pluck();
  const skillExists = hasKey('skills');
  const templateExists = hasKey('workflows');
  const agentExists = hasKey('agent_definitions');
  const insertSkill = db.prepare(
    `INSERT INTO skills (id, builtin_key, name, description, compatible_roles, prompt_template) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const slugTaken = db.prepare(`SELECT 1 FROM workflows WHERE kind = 'template' AND slug = ?`).pluck();
  const insertTemplate = db.prepare(
    `INSERT INTO workflows (id, builtin_key, kind, name, slug, description, graph) VALUES (?, ?, 'template', ?, ?, ?, ?)`,
  );
  const insertAgent = db.prepare(
    `INSERT INTO agent_definitions (id, builtin_key, name, display_name, binary, models, default_model) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(name) DO NOTHING`,
  );
  const run = db.transaction((): SeedResult => {
    const result: SeedResult = { skills: 0, templates: 0, agents: 0 };
    for (const s of data.skills) {
      if (skillExists.get(s.key)) continue;
      insertSkill.run(builtinId(s.key), s.key, s.name, s.description, JSON.stringify(s.compatible_roles), s.prompt_template);
      result.skills++;
    }
    for (const t of data.templates) {
      if (templateExists.get(t.key)) continue;
      // A user may have published a template under the built-in's name meanwhile; keep both, distinctly named.
      let name = t.name;
      let slug = slugify(name);
      for (let i = 2; slugTaken.get(slug); i++) {
        name = `${t.name} (built-in${i > 2 ? ` ${i - 1}` : ''})`;
        slug = slugify(name);
      }
      insertTemplate.run(builtinId(t.key), t.key, name, slug, t.description, JSON.stringify(t.graph));
      result.templates++;
    }
    for (const a of data.agents) {
      if (agentExists.get(a.key)) continue;
      result.agents += insertAgent.run(builtinId(a.key), a.key, a.name, a.display_name, a.binary, JSON.stringify(a.models), a.default_model).changes;
    }
    return result;
  });
  return run.immediate();
}
