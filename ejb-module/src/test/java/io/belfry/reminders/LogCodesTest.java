package io.belfry.reminders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each {@code BELFRY-nnnn} log code means one thing, so that an operator who greps for the code the
 * docs name finds that event and no other. The same message may be logged from two places (at WARN
 * and again at DEBUG with the stack trace); two different messages under one code fail here. A
 * message is told by its first two words.
 */
class LogCodesTest {

  private static final Pattern CODE = Pattern.compile("\"BELFRY-(\\d{4}) (\\S+ \\S+)");
  private static final Set<String> MODULES = Set.of("ejb-module", "persistence", "realm", "web-ui");

  @Test
  void everyCode_oneMessage_acrossModules() throws IOException {
    Map<String, Set<String>> messagesByCode = new TreeMap<>();
    for (String module : MODULES) {
      Path sources = Path.of("..", module, "src/main/java");
      try (Stream<Path> files = Files.walk(sources)) {
        files
            .filter(file -> file.toString().endsWith(".java"))
            .forEach(
                file -> {
                  Matcher code = CODE.matcher(read(file));
                  while (code.find()) {
                    messagesByCode
                        .computeIfAbsent(code.group(1), c -> new TreeSet<>())
                        .add(code.group(2));
                  }
                });
      }
    }
    assertThat(messagesByCode).as("codes found").hasSizeGreaterThan(50);
    assertThat(messagesByCode)
        .as("codes used for more than one message")
        .allSatisfy((code, messages) -> assertThat(messages).as(code).hasSize(1));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
