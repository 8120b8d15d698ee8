/** Shapes of the API payloads the UI reads (design.md §9); fields beyond these are ignored. */
import type { Graph } from '../../core/graph.js';
import type { ActiveRunRef } from './lib/format.js';

export interface Workflow {
  id: string;
  name: string;
  slug?: string;
  description?: string;
  kind: 'user' | 'template';
  graph?: Graph;
  active_run?: ActiveRunRef | null;
  builtin_key?: string | null;
  updated_at?: string;
  created_at?: string;
}

export interface RunSummary {
  id: string;
  status: string;
  workflow_id?: string | null;
  workflow_name?: string;
  workspace_path?: string;
  write?: boolean | number;
  created_at?: string;
  started_at?: string | null;
  completed_at?: string | null;
}

export interface StepRun {
  id: string;
  node_id: string;
  node_type?: string;
  level?: number;
  attempt?: number;
  status: string;
  output?: string | null;
  summary?: string | null;
  error?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
}

export interface ApprovalRequest {
  id: string;
  node_id: string;
  title?: string;
  status: string;
  allowed_actions?: unknown;
  note_required?: boolean | number;
  expires_at?: string;
  resolution_comment?: string | null;
  resolved_by_name?: string | null;
  resolved_at?: string | null;
}

export interface RunDetail extends RunSummary {
  graph?: Graph;
  steps?: StepRun[];
  levels?: unknown;
  approvals?: ApprovalRequest[];
  error?: string | null;
  pull_request_url?: string | null;
  bundle_path?: string | null;
  branch?: string | null;
}

export interface LogEntry {
  id?: number | string;
  level: string;
  message: string;
  node_id?: string | null;
  created_at?: string;
}

export interface AgentInfo {
  name: string;
  display_name?: string;
  found?: boolean;
  version?: string | null;
  models?: string[];
  default_model?: string | null;
  mcp_servers?: Array<string | { name: string; [k: string]: unknown }>;
}

export interface Workspace {
  id?: string;
  path: string;
  label?: string;
}

export interface Skill {
  id: string;
  name: string;
  description?: string;
  compatible_roles?: string[];
  prompt_template?: string;
}
