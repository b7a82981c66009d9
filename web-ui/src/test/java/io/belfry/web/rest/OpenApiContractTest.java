package io.belfry.web.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/openapi.yaml} (hand-written, served by the WAR) against the resources as compiled:
 * every operation the code serves is documented, and nothing else is; every documented operation
 * has an operationId and, unless public, a 401. A renamed path or a new endpoint without its
 * documentation fails here, before any server starts.
 */
class OpenApiContractTest {

  private static final java.nio.file.Path DOCUMENT = Paths.get("../docs/openapi.yaml");
  private static final java.nio.file.Path CLASSES = Paths.get("target/classes");
  private static final Map<Class<? extends Annotation>, String> METHODS =
      Map.of(GET.class, "get", PUT.class, "put", POST.class, "post", DELETE.class, "delete");
  private static final Set<String> PUBLIC = Set.of("get /health");

  private static final Pattern PATH_LINE = Pattern.compile("^  (/\\S*):\\s*$");
  private static final Pattern OPERATION_LINE =
      Pattern.compile("^    (get|put|post|delete|head|patch|options):\\s*$");

  @Test
  void documentedOperations_areExactlyTheServedOnes() throws Exception {
    assertThat(documented().keySet()).isEqualTo(served());
  }

  @Test
  void everyOperation_hasAnOperationId_andA401UnlessPublic() throws Exception {
    documented()
        .forEach(
            (operation, body) -> {
              assertThat(body).as(operation).containsPattern("(?m)^      operationId: \\w+");
              if (!PUBLIC.contains(operation)) {
                assertThat(body).as(operation + " documents its 401").contains("'401':");
              }
            });
  }

  /** "method /path" of each operation in the document, with the text of its block. */
  private static Map<String, String> documented() throws IOException {
    Map<String, String> operations = new java.util.TreeMap<>();
    String path = null;
    String operation = null;
    StringBuilder block = new StringBuilder();
    boolean inPaths = false;
    for (String line : Files.readAllLines(DOCUMENT)) {
      if (line.equals("paths:")) {
        inPaths = true;
        continue;
      }
      if (inPaths && !line.isEmpty() && !line.startsWith(" ")) {
        break; // the next top-level key: the paths are over
      }
      if (!inPaths) {
        continue;
      }
      Matcher pathLine = PATH_LINE.matcher(line);
      Matcher operationLine = OPERATION_LINE.matcher(line);
      if (pathLine.matches() || operationLine.matches()) {
        if (operation != null) {
          operations.put(operation, block.toString());
        }
        operation = null;
        block.setLength(0);
        if (pathLine.matches()) {
          path = pathLine.group(1);
        } else {
          operation = operationLine.group(1) + " " + path;
        }
        continue;
      }
      block.append(line).append('\n');
    }
    if (operation != null) {
      operations.put(operation, block.toString());
    }
    return operations;
  }

  /** "method /path" of each resource method of the WAR's compiled classes. */
  private static Set<String> served() throws Exception {
    Set<String> operations = new TreeSet<>();
    List<String> classNames;
    try (Stream<java.nio.file.Path> files = Files.walk(CLASSES)) {
      classNames =
          files
              .map(CLASSES::relativize)
              .map(java.nio.file.Path::toString)
              .filter(name -> name.endsWith(".class") && !name.contains("$"))
              .map(name -> name.substring(0, name.length() - 6).replace('/', '.'))
              .toList();
    }
    ClassLoader loader = OpenApiContractTest.class.getClassLoader();
    for (String className : classNames) {
      Class<?> type = Class.forName(className, false, loader);
      Path root = type.getAnnotation(Path.class);
      if (root == null) {
        continue;
      }
      for (Method method : type.getMethods()) {
        for (Map.Entry<Class<? extends Annotation>, String> http : METHODS.entrySet()) {
          if (method.isAnnotationPresent(http.getKey())) {
            Path sub = method.getAnnotation(Path.class);
            String path = "/" + root.value() + (sub == null ? "" : "/" + sub.value());
            operations.add(http.getValue() + " " + withoutRegex(path));
          }
        }
        if (method.isAnnotationPresent(HEAD.class)) {
          throw new AssertionError("a HEAD method: add it to METHODS and the document");
        }
      }
    }
    return operations;
  }

  /** {@code {key: .+}} as the document writes it: {@code {key}}. */
  private static String withoutRegex(String path) {
    return path.replaceAll("\\{(\\w+)\\s*:[^}]*}", "{$1}").replace("//", "/");
  }
}
