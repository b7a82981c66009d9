package io.belfry.web.api;

import static io.belfry.web.api.ApiClient.segment;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Generates requests that each break at least one rule of the API, from a seed: malformed JSON,
 * wrong types, huge payloads and keys, control characters, bad cron expressions, durations, dates,
 * zones and repeating intervals, both {@code fireAt} and {@code delay}, unknown fields, bad
 * namespaces and query parameters. Valid parts (unicode keys, path-traversal text as a key) are
 * always paired with an invalid one, so that no request may succeed. Every valid namespace used is
 * {@link #NAMESPACE}, so "nothing stored" is checked by listing it.
 */
final class BadRequests {

  static final String NAMESPACE = "fuzz";

  record Request(String kind, String method, String path, String body, String contentType) {}

  private static final String[] VALID_FIRST = {
    "\"delay\": \"PT1H\"", "\"fireAt\": \"2099-01-01T00:00:00Z\""
  };

  private static final String[] BAD_VALUES = {
    "\"\"",
    "\" \"",
    "\"x\"",
    "\"PT\"",
    "\"P-1D\"",
    "\"-PT1S\"",
    "\"2026-13-45T00:00:00Z\"",
    "\"2026-11-21\"",
    "\"tomorrow\"",
    "\"9999999999-01-01T00:00:00Z\"",
    "\"P1000000Y\"",
    "\"PT100000000000H\"",
    "true",
    "false",
    "[]",
    "{}",
    "[1,2]",
    "{\"a\":1}",
    "1.5",
    "-1",
    "1e400",
    "99999999999999999999",
    "\"\\u0000\"",
    "\"\\ud800\""
  };

  private static final String[] BAD_CRON = {
    "61 * * * *", "* * * *", "* * * * * * *", "a b c d e", "0 9 * * MON-FRX", "*/0 * * * *",
    "0 0 31 2 *x", "", " ", "@yearly @daily", "0 25 * * *", "0 0 0 * *"
  };

  private static final String[] BAD_REPEAT = {
    "R5",
    "R/2026-01-01T00:00:00Z",
    "R-1/2026-01-01T00:00:00Z/PT1H",
    "R5/x/PT1H",
    "R5/2026-01-01T00:00:00Z/PT0S",
    "R5/2026-01-01T00:00:00Z/P-1D",
    "5/2026-01-01T00:00:00Z/PT1H",
    "R5/2026-01-01T00:00:00Z/PT0.001S",
    "R0/2026-01-01T00:00:00Z/PT1H"
  };

  private static final String[] BAD_ZONES = {"Mars/Olympus", "UTC+99", "", "Europe/", "../etc"};

  private static final String[] FIELDS = {
    "fireAt",
    "delay",
    "every",
    "cron",
    "zone",
    "repeat",
    "until",
    "maxOccurrences",
    "misfire",
    "deadline",
    "delivery"
  };

  private final Random random;
  private final List<Supplier<Request>> generators = new ArrayList<>();

  BadRequests(long seed) {
    random = new Random(seed);
    generators.add(this::malformedJson);
    generators.add(this::wrongType);
    generators.add(this::bothFirstTimes);
    generators.add(this::noFirstTime);
    generators.add(this::unknownField);
    generators.add(this::badCron);
    generators.add(this::badRepeat);
    generators.add(this::badZone);
    generators.add(this::badEnum);
    generators.add(this::badRange);
    generators.add(this::controlCharacterKey);
    generators.add(this::longKey);
    generators.add(this::unicodeKeyBadBody);
    generators.add(this::traversalKeyBadBody);
    generators.add(this::badNamespace);
    generators.add(this::badQuery);
    generators.add(this::bodyNotAnObject);
    generators.add(this::wrongContentType);
    generators.add(this::oversizedPayload);
    generators.add(this::deeplyNestedPayload);
    generators.add(this::badToken);
  }

  Request next() {
    return generators.get(random.nextInt(generators.size())).get();
  }

  /** One request of each generator, for a run that must cover every kind. */
  List<Request> oneOfEach() {
    return generators.stream().map(Supplier::get).toList();
  }

  private String key() {
    return "k-" + random.nextInt(1000);
  }

  private Request put(String kind, String key, String body) {
    return new Request(
        kind, "PUT", "/reminders/" + NAMESPACE + "/" + segment(key), body, "application/json");
  }

  private String first() {
    return VALID_FIRST[random.nextInt(VALID_FIRST.length)];
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }

  private Request malformedJson() {
    String valid =
        "{" + first() + ", \"every\": \"PT15M\", \"payload\": {\"a\": [1, 2, {\"b\": null}]}}";
    String body =
        switch (random.nextInt(6)) {
          case 0 -> valid.substring(0, 1 + random.nextInt(valid.length() - 2));
          case 1 -> valid.replace(":", random.nextBoolean() ? "=" : "");
          case 2 -> valid + "}";
          case 3 -> "{" + first().replace("\"", "'") + "}";
          case 4 -> "{" + first() + ",}";
          default -> randomBytes();
        };
    return put("malformed JSON", key(), body);
  }

  private String randomBytes() {
    StringBuilder text = new StringBuilder("{");
    int length = 1 + random.nextInt(40);
    for (int i = 0; i < length; i++) {
      text.append((char) (random.nextInt(0x7f - 0x20) + 0x20));
    }
    return text.toString().replace("}", "");
  }

  private Request wrongType() {
    String field = pick(FIELDS);
    String value = pick(BAD_VALUES);
    String body =
        field.equals("fireAt") || field.equals("delay")
            ? "{\"" + field + "\": " + value + "}"
            : "{" + first() + ", \"" + field + "\": " + value + "}";
    return put("wrong type for " + field, key(), body);
  }

  private Request bothFirstTimes() {
    return put(
        "fireAt and delay", key(), "{\"fireAt\": \"2099-01-01T00:00:00Z\", \"delay\": \"PT1M\"}");
  }

  private Request noFirstTime() {
    return put("no first fire time", key(), random.nextBoolean() ? "{}" : "{\"every\": \"PT1H\"}");
  }

  private Request unknownField() {
    String[] names = {"key", "namespace", "untill", "Delay", "fire_at", "", "\\u0000", "payloads"};
    return put("unknown field", key(), "{" + first() + ", \"" + pick(names) + "\": 1}");
  }

  private Request badCron() {
    return put("bad cron", key(), "{\"cron\": \"" + pick(BAD_CRON) + "\"}");
  }

  private Request badRepeat() {
    return put("bad repeat", key(), "{\"repeat\": \"" + pick(BAD_REPEAT) + "\"}");
  }

  private Request badZone() {
    return put(
        "bad zone", key(), "{\"cron\": \"0 9 * * *\", \"zone\": \"" + pick(BAD_ZONES) + "\"}");
  }

  private Request badEnum() {
    String field = random.nextBoolean() ? "misfire" : "delivery";
    String[] values = {"fire_once", "NEVER", "AT_LEAST_TWICE", "", "SKIP ", "0"};
    return put(
        "bad " + field, key(), "{" + first() + ", \"" + field + "\": \"" + pick(values) + "\"}");
  }

  private Request badRange() {
    String[] bodies = {
      "{" + first() + ", \"every\": \"PT0.001S\"}",
      "{" + first() + ", \"every\": \"0\"}",
      "{" + first() + ", \"every\": \"-5m\"}",
      "{" + first() + ", \"maxOccurrences\": 0}",
      "{" + first() + ", \"maxOccurrences\": -7}",
      "{\"fireAt\": \"2099-01-01T00:00:00Z\", \"until\": \"2098-01-01T00:00:00Z\"}",
      "{" + first() + ", \"deadline\": \"PT1M\"}",
      "{" + first() + ", \"misfire\": \"SKIP\", \"deadline\": \"-PT1M\"}",
      "{\"delay\": \"P400000D\"}",
      "{\"fireAt\": \"2300-01-01T00:00:00Z\"}",
      "{\"delay\": \"-PT1M\"}"
    };
    return put("out of range", key(), pick(bodies));
  }

  private Request controlCharacterKey() {
    char control =
        (char) (random.nextBoolean() ? random.nextInt(0x20) : 0x7f + random.nextInt(0x21));
    return put("control character in key", "bad" + control + "key", "{" + first() + "}");
  }

  private Request longKey() {
    return put("huge key", "x".repeat(513 + random.nextInt(4000)), "{" + first() + "}");
  }

  private Request unicodeKeyBadBody() {
    String[] keys = {"emoji-😀-ключ", "日本語のキー", "ünïcödé", "עברית", "\u200b\u200dzero-width"};
    return put("unicode key, bad body", pick(keys), "{\"delay\": \"soon\"}");
  }

  private Request traversalKeyBadBody() {
    String[] keys = {"../../etc/passwd", "..\\..\\windows", "%2e%2e/%2e%2e", "a/../../b", "./."};
    return put("path traversal key, bad body", pick(keys), "{\"cron\": \"never\"}");
  }

  private Request badNamespace() {
    String[] namespaces = {"..", "a b", "ns/x", "n".repeat(200), "ns%00", "<script>", "ns;drop"};
    String namespace = pick(namespaces);
    String path = "/reminders/" + segment(namespace) + "/" + key();
    return switch (random.nextInt(3)) {
      case 0 -> new Request("bad namespace", "PUT", path, "{" + first() + "}", "application/json");
      case 1 -> new Request("bad namespace", "GET", path, null, null);
      default -> new Request("bad namespace", "DELETE", path, null, null);
    };
  }

  private Request badQuery() {
    String[] queries = {
      "/reminders?limit=0",
      "/reminders?limit=-1",
      "/reminders?limit=1001",
      "/reminders?limit=x",
      "/reminders?state=NOPE",
      "/reminders?dueBefore=yesterday",
      "/reminders?dueAfter=2026-13-01",
      "/reminders?prefix=a",
      "/reminders?namespace=" + segment("a b"),
      "/reminders?namespace=fuzz&dueAfter=2099-01-01T00:00:00Z&dueBefore=2098-01-01T00:00:00Z",
      "/audit?limit=0",
      "/audit?type=EXPLODED",
      "/audit?since=x",
      "/audit?cursor=zzz",
      "/audit?cursor=1.2",
      "/audit?since=2099-01-01T00:00:00Z&until=2098-01-01T00:00:00Z",
      "/audit?cursor=99999999999999999999.1.1"
    };
    return new Request("bad query", "GET", pick(queries), null, null);
  }

  private Request bodyNotAnObject() {
    String[] bodies = {"[]", "\"text\"", "42", "null", "true", "", "   "};
    return put("body not an object", key(), pick(bodies));
  }

  private Request wrongContentType() {
    String[] types = {"text/plain", "application/xml", "application/x-www-form-urlencoded"};
    return new Request(
        "wrong content type",
        "PUT",
        "/reminders/" + NAMESPACE + "/" + key(),
        "{" + first() + "}",
        pick(types));
  }

  private Request oversizedPayload() {
    // rare and big: 64 KiB + a little (400), or past the 1 MiB body limit (413)
    int size = random.nextInt(10) == 0 ? 1_100_000 : 66_000 + random.nextInt(10_000);
    return put(
        "oversized payload", key(), "{" + first() + ", \"payload\": \"" + "p".repeat(size) + "\"}");
  }

  private Request deeplyNestedPayload() {
    // past the parser's 1,000 levels: a 400 naming the field, never the parser's own 500
    int depth = 1_001 + random.nextInt(3_000);
    String open = random.nextBoolean() ? "[" : "{\"a\":";
    String close = open.equals("[") ? "]" : "}";
    return put(
        "deeply nested payload",
        key(),
        "{" + first() + ", \"payload\": " + open.repeat(depth) + "1" + close.repeat(depth) + "}");
  }

  private Request badToken() {
    String[] bodies = {
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"expiresAt\": \"2020-01-01T00:00:00Z\"}",
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"expiresAt\": \"soon\"}",
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"expiresAt\": 1}",
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"namespaces\": [\"a b\"]}",
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"namespaces\": []}",
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"namespaces\": [1]}",
      "{\"name\": \"t\", \"roles\": [\"root\"]}",
      "{\"name\": \"t t\", \"roles\": [\"belfry-viewer\"]}",
      "{\"roles\": [\"belfry-viewer\"]}",
      "{\"name\": \"t\", \"roles\": [\"belfry-viewer\"], \"secret\": \"x\"}"
    };
    return new Request("bad token", "POST", "/tokens", pick(bodies), "application/json");
  }
}
