-- Console and API users, read by the Elytron jdbc-realm "belfry-realm" (configure-security.cli).
-- Passwords are bcrypt hashes: hash and salt base64, cost in iterations. Portable across H2 2.x
-- and PostgreSQL.
CREATE TABLE belfry_user (
    name          VARCHAR(128) NOT NULL PRIMARY KEY,
    password_hash VARCHAR(64)  NOT NULL,
    password_salt VARCHAR(64)  NOT NULL,
    iterations    INTEGER      NOT NULL,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE belfry_user_role (
    name VARCHAR(128) NOT NULL REFERENCES belfry_user (name) ON DELETE CASCADE,
    role VARCHAR(64)  NOT NULL,
    PRIMARY KEY (name, role)
);
