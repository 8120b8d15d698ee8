-- 001-init: every table of design.md §4. Append new migrations; never edit a landed one.
-- Timestamps are ISO 8601 UTC strings (strftime('%Y-%m-%dT%H:%M:%fZ','now')). JSON columns are TEXT checked with json_valid.

CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  username      TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(username) BETWEEN 1 AND 64),
  password_hash TEXT NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('admin', 'operator')),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Lucia-style sessions: id is the hex SHA-256 of the bearer token; the token itself is never stored.
CREATE TABLE auth_sessions (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at   TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at TEXT,
  ip           TEXT,
  user_agent   TEXT
);
CREATE INDEX auth_sessions_user ON auth_sessions(user_id);
CREATE INDEX auth_sessions_expiry ON auth_sessions(expires_at);

-- api_key lives in $WFCTL_HOME/secrets/; has_api_key only records that one is set.
CREATE TABLE model_providers (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  type        TEXT NOT NULL CHECK (type IN ('local', 'openai-compatible', 'anthropic-compatible')),
  base_url    TEXT,
  models      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(models)),
  has_api_key INTEGER NOT NULL DEFAULT 0 CHECK (has_api_key IN (0, 1)),
  status      TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('configured', 'draft')),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE skills (
  id               TEXT PRIMARY KEY,
  builtin_key      TEXT UNIQUE,
  name             TEXT NOT NULL,
  description      TEXT NOT NULL DEFAULT '',
  compatible_roles TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(compatible_roles)),
  prompt_template  TEXT NOT NULL,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE connectors (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  type       TEXT NOT NULL,
  config     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config)),
  has_secret INTEGER NOT NULL DEFAULT 0 CHECK (has_secret IN (0, 1)),
  status     TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('configured', 'draft')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE agent_definitions (
  id            TEXT PRIMARY KEY,
  builtin_key   TEXT UNIQUE,
  name          TEXT NOT NULL UNIQUE CHECK (name IN ('claude', 'codex', 'gemini')),
  display_name  TEXT NOT NULL,
  binary        TEXT NOT NULL,
  models        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(models)),
  default_model TEXT,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE workflows (
  id          TEXT PRIMARY KEY,
  builtin_key TEXT UNIQUE,
  kind        TEXT NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'template')),
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  slug        TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  graph       TEXT NOT NULL CHECK (json_valid(graph)),
  created_by  TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- A slug names one workflow per tab, so `wfctl run <name>` is never ambiguous.
CREATE UNIQUE INDEX workflows_kind_slug ON workflows(kind, slug);

-- Runs outlive their workflow (audit): deleting a workflow nulls workflow_id, workflow_name keeps the name.
CREATE TABLE workflow_runs (
  id               TEXT PRIMARY KEY,
  workflow_id      TEXT REFERENCES workflows(id) ON DELETE SET NULL,
  workflow_name    TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'waiting_approval', 'completed', 'failed', 'cancelled')),
  workspace_path   TEXT NOT NULL,
  write            INTEGER NOT NULL DEFAULT 0 CHECK (write IN (0, 1)),
  sandbox          INTEGER NOT NULL DEFAULT 1 CHECK (sandbox IN (0, 1)),
  executor         TEXT NOT NULL DEFAULT 'server' CHECK (executor IN ('server', 'cli')),
  graph            TEXT NOT NULL CHECK (json_valid(graph)),
  levels           TEXT CHECK (levels IS NULL OR json_valid(levels)),
  current_level    INTEGER NOT NULL DEFAULT 0,
  context          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(context)),
  workdir          TEXT,
  error            TEXT,
  pull_request_url TEXT,
  bundle_path      TEXT,
  branch           TEXT,
  timeout_at       TEXT,
  created_by       TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at       TEXT,
  updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  completed_at     TEXT,
  heartbeat_at     TEXT
);
CREATE INDEX workflow_runs_workflow_time ON workflow_runs(workflow_id, created_at DESC);
CREATE INDEX workflow_runs_status ON workflow_runs(status);
CREATE INDEX workflow_runs_time ON workflow_runs(created_at DESC);

CREATE TABLE workflow_step_runs (
  id           TEXT PRIMARY KEY,
  run_id       TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  node_id      TEXT NOT NULL,
  node_type    TEXT NOT NULL,
  level        INTEGER NOT NULL,
  attempt      INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
  status       TEXT NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'running', 'completed', 'failed', 'skipped', 'cancelled', 'waiting_approval')),
  output       TEXT,
  summary      TEXT,
  error        TEXT,
  started_at   TEXT,
  completed_at TEXT,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (run_id, node_id, attempt)
);
CREATE INDEX workflow_step_runs_run ON workflow_step_runs(run_id, level, node_id);

CREATE TABLE run_logs (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id     TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  level      TEXT NOT NULL CHECK (level IN ('info', 'warn', 'error')),
  node_id    TEXT,
  message    TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX run_logs_run ON run_logs(run_id, id);

-- run_id is NULL for agent runs made by planning (no workflow run yet).
CREATE TABLE agent_runs (
  id            TEXT PRIMARY KEY,
  run_id        TEXT REFERENCES workflow_runs(id) ON DELETE CASCADE,
  step_run_id   TEXT REFERENCES workflow_step_runs(id) ON DELETE CASCADE,
  node_id       TEXT,
  agent         TEXT NOT NULL CHECK (agent IN ('claude', 'codex', 'gemini')),
  model         TEXT,
  runtime       TEXT NOT NULL DEFAULT 'direct' CHECK (runtime IN ('direct', 'container')),
  command       TEXT NOT NULL CHECK (json_valid(command)),
  cwd           TEXT,
  pid           INTEGER,
  status        TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'completed', 'failed', 'cancelled', 'timed_out')),
  exit_code     INTEGER,
  session_id    TEXT,
  input_tokens  INTEGER,
  output_tokens INTEGER,
  cached_tokens INTEGER,
  cost_usd      REAL,
  duration_ms   INTEGER,
  final_output  TEXT,
  error         TEXT,
  truncated     INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
  started_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  completed_at  TEXT
);
CREATE INDEX agent_runs_run ON agent_runs(run_id, node_id);
CREATE INDEX agent_runs_step ON agent_runs(step_run_id);

CREATE TABLE agent_messages (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_run_id TEXT NOT NULL REFERENCES agent_runs(id) ON DELETE CASCADE,
  run_id       TEXT REFERENCES workflow_runs(id) ON DELETE CASCADE,
  node_id      TEXT,
  seq          INTEGER NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('system', 'text', 'reasoning', 'tool_use', 'tool_result', 'error', 'result')),
  content      TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (agent_run_id, seq)
);
CREATE INDEX agent_messages_run_node ON agent_messages(run_id, node_id, id);

CREATE TABLE memory_entries (
  id           TEXT PRIMARY KEY,
  run_id       TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  node_id      TEXT NOT NULL,
  key          TEXT NOT NULL,
  value        TEXT NOT NULL,
  scope        TEXT NOT NULL DEFAULT 'workflow' CHECK (scope IN ('workflow', 'team', 'agent_private')),
  sensitivity  TEXT NOT NULL DEFAULT 'normal' CHECK (sensitivity IN ('normal', 'sensitive')),
  generated_by TEXT,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX memory_entries_run ON memory_entries(run_id, created_at);

CREATE TABLE approval_requests (
  id                 TEXT PRIMARY KEY,
  run_id             TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  step_run_id        TEXT REFERENCES workflow_step_runs(id) ON DELETE SET NULL,
  node_id            TEXT NOT NULL,
  title              TEXT NOT NULL DEFAULT '',
  status             TEXT NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'approved', 'rejected', 'revision_requested', 'expired')),
  allowed_actions    TEXT NOT NULL DEFAULT '["approve","reject","request_revision"]' CHECK (json_valid(allowed_actions)),
  note_required      INTEGER NOT NULL DEFAULT 0 CHECK (note_required IN (0, 1)),
  expires_at         TEXT NOT NULL,
  resolution_comment TEXT,
  resolved_by        TEXT REFERENCES users(id) ON DELETE SET NULL,
  resolved_by_name   TEXT,
  resolved_at        TEXT,
  created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX approval_requests_run_status ON approval_requests(run_id, status);
CREATE INDEX approval_requests_status_expiry ON approval_requests(status, expires_at);

-- The durable job queue. A job is available when status='pending' and run_at <= now, or when its lease expired.
CREATE TABLE jobs (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  kind             TEXT NOT NULL,
  run_id           TEXT REFERENCES workflow_runs(id) ON DELETE CASCADE,
  payload          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'leased', 'completed', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  max_attempts     INTEGER NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  run_at           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  lease_owner      TEXT,
  lease_expires_at TEXT,
  last_error       TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX jobs_available ON jobs(status, run_at);
CREATE INDEX jobs_lease ON jobs(status, lease_expires_at);
CREATE INDEX jobs_run ON jobs(run_id);

-- The event log streamed over SSE / WebSocket; id is the SSE id, so Last-Event-ID resumes across restarts.
CREATE TABLE run_events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id     TEXT REFERENCES workflow_runs(id) ON DELETE CASCADE,
  type       TEXT NOT NULL CHECK (type IN ('run.status', 'node.status', 'log', 'agent.started', 'agent.message',
                'agent.completed', 'memory.write', 'approval.required', 'approval.resolved', 'run.report',
                'run.artifacts', 'run.graph')),
  payload    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX run_events_run ON run_events(run_id, id);

CREATE TABLE workspaces (
  id          TEXT PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  label       TEXT NOT NULL DEFAULT '',
  approved_by TEXT,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
