#!/usr/bin/env bash
# Makes target/server-postgresql: a copy of the provisioned test server whose BelfryDS is switched
# from H2 to PostgreSQL with the same CLI scripts a user would run by hand (restore the H2
# datasource, configure the PostgreSQL one). The audit suites run against it as well as against
# the H2 server, on the machine's PostgreSQL (127.0.0.1:5432, database test).
set -euo pipefail
target="$1"
cli="$2"
rm -rf "$target/server-postgresql"
cp -a "$target/server" "$target/server-postgresql"
{
  echo "embed-server --server-config=standalone.xml"
  # the realm uses BelfryDS: take it off while the datasource is switched
  cat "$cli/restore-security.cli" "$cli/restore-datasource-h2.cli" \
    "$cli/configure-datasource-postgresql.cli" "$cli/configure-security.cli"
  echo "stop-embedded-server"
} > "$target/switch-to-postgresql.cli"
"$target/server-postgresql/bin/jboss-cli.sh" --file="$target/switch-to-postgresql.cli"
