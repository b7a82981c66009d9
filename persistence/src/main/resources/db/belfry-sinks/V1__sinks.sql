-- Where each namespace's fires are forwarded besides its CDI observers (docs/sinks.md): one row per
-- namespace that has a sink. The secret keys the HMAC signature of webhook bodies, so it is stored
-- as given (it must be read back to sign); the API and the console never show it. Portable across
-- H2 2.x and PostgreSQL.
CREATE TABLE belfry_sink (
    namespace      VARCHAR(128)  NOT NULL PRIMARY KEY,
    webhook_url    VARCHAR(2048),
    webhook_secret VARCHAR(256),
    timeout_ms     BIGINT        NOT NULL,
    updated_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_by     VARCHAR(255)
);
