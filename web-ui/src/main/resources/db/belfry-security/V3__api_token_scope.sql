-- An API token may end (expires_at; NULL: until revoked) and may be bound to namespaces
-- (namespaces: comma-separated; NULL: every namespace). The realm io.belfry.realm refuses an
-- expired token; belfry.war refuses a bound token outside its namespaces.
ALTER TABLE belfry_api_token ADD COLUMN expires_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE belfry_api_token ADD COLUMN namespaces VARCHAR(4096);
