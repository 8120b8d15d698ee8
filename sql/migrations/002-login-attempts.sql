-- Sign-in attempts counted by the login limiter (server/plugins/ratelimit.ts), kept in the database so a restart
-- (or a crash loop) does not hand an attacker fresh counts. `key` is the SHA-256 of the address or the lower-cased
-- user name, never the typed text (people type passwords into the name field). Rows older than the longest window
-- are pruned as new ones arrive.
CREATE TABLE login_attempts (
  scope TEXT NOT NULL CHECK (scope IN ('address', 'username')),
  key   TEXT NOT NULL,
  at    INTEGER NOT NULL
);
CREATE INDEX login_attempts_key ON login_attempts(scope, key, at);
CREATE INDEX login_attempts_at ON login_attempts(at);
