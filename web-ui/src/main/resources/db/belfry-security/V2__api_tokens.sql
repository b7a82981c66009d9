-- API tokens for machine clients (Authorization: Bearer), read by the realm io.belfry.realm.
-- Only the SHA-256 of a token is stored (hex): tokens are 256 random bits, so a fast hash is
-- enough, and a request costs one indexed lookup instead of a bcrypt verification.
CREATE TABLE belfry_api_token (
    id           VARCHAR(36)  NOT NULL PRIMARY KEY,
    name         VARCHAR(128) NOT NULL,
    token_hash   VARCHAR(64)  NOT NULL UNIQUE,
    roles        VARCHAR(256) NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    created_by   VARCHAR(128),
    last_used_at TIMESTAMP WITH TIME ZONE
);
