package io.belfry.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The users' schema names its migrations (Flyway does not scan inside WildFly, see {@code
 * VersionedSchema}), so a migration added to the folder but not to the list would never run: the
 * first request reading its columns would fail on every server. This catches it before a server
 * starts.
 */
class SecuritySchemaListTest {

  @Test
  void listedMigrations_areExactlyTheFolder_inVersionOrder() throws Exception {
    Path folder = Path.of("src/main/resources", UserDirectory.SCHEMA.location());
    try (Stream<Path> files = Files.list(folder)) {
      assertThat(UserDirectory.SCHEMA.migrations())
          .isEqualTo(
              files
                  .map(file -> file.getFileName().toString())
                  .sorted(
                      (a, b) ->
                          Integer.compare(
                              Integer.parseInt(a.substring(1, a.indexOf("__"))),
                              Integer.parseInt(b.substring(1, b.indexOf("__")))))
                  .toList());
    }
  }
}
