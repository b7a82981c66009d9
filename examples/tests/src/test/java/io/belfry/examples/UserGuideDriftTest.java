package io.belfry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/user-guide.md shows the examples' files: every code block marked {@code <!-- example: path
 * -->} must be in that file of the repository. An XML block is a part of it (whitespace between
 * elements aside); a Java block is the whole file. So a user who follows the guide builds what the
 * examples' tests deploy, and a change to either side that forgets the other fails the build.
 */
class UserGuideDriftTest {

  private static final Path ROOT = Path.of("../..");
  private static final Pattern MARKED_BLOCK =
      Pattern.compile("<!-- example: (\\S+) -->\\s*\\n```(\\w+)\\n(.*?)\\n```", Pattern.DOTALL);

  record Shown(String file, String language, String code) {}

  @Test
  void everyMarkedSnippetIsInItsExampleFile() throws IOException {
    List<Shown> shown = shownIn(ROOT.resolve("docs/user-guide.md"));
    assertThat(shown)
        .as("the guide shows the WAR's, the EAR's and the worked example's files")
        .extracting(Shown::file)
        .contains(
            "examples/cart/pom.xml",
            "examples/billing/billing-ear/pom.xml",
            "examples/billing/billing-ejb/pom.xml",
            "examples/cart/src/main/java/com/example/cart/AbandonedCarts.java");
    for (Shown snippet : shown) {
      String file = Files.readString(ROOT.resolve(snippet.file()));
      if (snippet.language().equals("java")) {
        assertThat(snippet.code().strip())
            .as("the guide's copy of %s", snippet.file())
            .isEqualTo(file.strip());
      } else {
        assertThat(xml(file))
            .as("%s holds the guide's snippet%n%s", snippet.file(), snippet.code())
            .contains(xml(snippet.code()));
      }
    }
  }

  @Test
  void xmlComparison_ignoresLayout_notContent() {
    String pom =
        "<dependency>\n  <artifactId>belfry-ejb</artifactId>\n  <version>1</version>\n</dependency>";
    assertThat(xml(pom)).contains(xml("<dependency>\n<artifactId>belfry-ejb</artifactId>"));
    assertThat(xml(pom))
        .doesNotContain(xml("<artifactId>belfry-ejb</artifactId><version>2</version>"));
  }

  static List<Shown> shownIn(Path guide) throws IOException {
    Matcher block = MARKED_BLOCK.matcher(Files.readString(guide));
    List<Shown> shown = new ArrayList<>();
    while (block.find()) {
      shown.add(new Shown(block.group(1), block.group(2), block.group(3)));
    }
    return shown;
  }

  /** XML with the whitespace between elements, and runs of it inside them, made irrelevant. */
  static String xml(String text) {
    return text.replaceAll(">\\s+<", "><").replaceAll("\\s+", " ").strip();
  }
}
