-- The Jakarta Messaging sink (docs/sinks.md): an ActiveMQ Artemis broker URL (tcp://host:port), a
-- destination (queue:NAME or topic:NAME) and optional credentials. The password is stored as given,
-- like the webhook secret, because Belfry must read it back to connect; the API and the console
-- never show it. One statement per column: portable across H2 2.x and PostgreSQL.
ALTER TABLE belfry_sink ADD COLUMN jms_url VARCHAR(2048);
ALTER TABLE belfry_sink ADD COLUMN jms_destination VARCHAR(255);
ALTER TABLE belfry_sink ADD COLUMN jms_user VARCHAR(255);
ALTER TABLE belfry_sink ADD COLUMN jms_password VARCHAR(255);
