-- People who sign in to the web app. A user belongs to one account and sees only its data.
CREATE TABLE users (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id           uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email                text NOT NULL,
  name                 text NOT NULL DEFAULT '',
  -- An argon2id PHC string; NULL until the user sets a password through a one-time sign-in link.
  password_hash        text,
  password_changed_at  timestamptz,
  created_at           timestamptz NOT NULL
);
-- E-mail addresses are one per person across svc: sign-in asks for nothing else.
CREATE UNIQUE INDEX users_email ON users (lower(email));
CREATE INDEX users_account ON users (account_id, created_at);

-- A session cookie holds a random token; only its SHA-256 digest is stored, as with API keys.
CREATE TABLE web_sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash    bytea NOT NULL UNIQUE,
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Each form's CSRF token is derived from this secret (@fastify/csrf).
  csrf_secret   text NOT NULL,
  -- Started by a one-time link (first start, reset): may set a password without the old one.
  via_link      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);

-- One-time sign-in links (first start, new users, password resets); the digest only, as above.
CREATE TABLE sign_in_links (
  token_hash  bytea PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX sign_in_links_user ON sign_in_links (user_id);
