package io.belfry.web.rest.json;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.web.rest.problem.PayloadTooLargeException;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a request body as a JSON object, refusing to buffer more than a limit. */
public final class RequestBody {

  /** The largest body the API reads: well above the largest payload, even escaped. */
  public static final int MAX_BYTES = 1024 * 1024;

  /** The nesting Parsson reads (its default, {@code org.eclipse.parsson.maxDepth}). */
  public static final int MAX_DEPTH = 1000;

  /**
   * The longest number literal Parsson converts (its default, {@code
   * org.eclipse.parsson.maxBigDecimalLength}).
   */
  public static final int MAX_NUMBER_CHARACTERS = 1100;

  private RequestBody() {}

  /**
   * @throws PayloadTooLargeException past {@link #MAX_BYTES}; nothing more is read
   */
  public static byte[] read(InputStream in) throws IOException {
    if (in == null) {
      return new byte[0];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) != -1) {
      if (out.size() + n > MAX_BYTES) {
        throw new PayloadTooLargeException(MAX_BYTES);
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  /**
   * The body as a JSON object.
   *
   * @throws PayloadTooLargeException past {@link #MAX_BYTES}
   * @throws InvalidReminderException if it is empty, not JSON, or not an object
   */
  public static JsonObject jsonObject(InputStream in) throws IOException {
    byte[] body = read(in);
    if (body.length == 0) {
      throw InvalidReminderException.of("", "a JSON object body is required");
    }
    try (JsonParser parser = JSON.createParser(new ByteArrayInputStream(body))) {
      if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
        throw InvalidReminderException.of("", "the body must be a JSON object");
      }
      JsonObject object = fields(parser);
      if (parser.hasNext()) {
        // a reader would stop after the object and ignore the rest: "{...}}" is not JSON
        throw InvalidReminderException.of("", "malformed JSON: text after the object");
      }
      return object;
    } catch (JsonParsingException e) {
      JsonLocation at = e.getLocation();
      throw InvalidReminderException.of(
          "",
          at == null
              ? "malformed JSON"
              : "malformed JSON at line "
                  + at.getLineNumber()
                  + ", column "
                  + at.getColumnNumber());
    } catch (JsonException e) {
      throw InvalidReminderException.of("", "malformed JSON");
    }
  }

  /**
   * The object's fields, one at a time, so that a value the parser refuses is reported on its
   * field, with what it refused. Parsson's refusals are not parsing errors: a number literal of
   * more than {@link #MAX_NUMBER_CHARACTERS} characters is an UnsupportedOperationException, an
   * exponent past an int's range a NumberFormatException (both when it builds the value), and
   * nesting past {@link #MAX_DEPTH} levels a plain RuntimeException.
   */
  private static JsonObject fields(JsonParser parser) {
    JsonObjectBuilder object = JSON.createObjectBuilder();
    while (parser.next() == JsonParser.Event.KEY_NAME) {
      String field = parser.getString();
      parser.next();
      try {
        object.add(field, parser.getValue());
      } catch (JsonException e) {
        throw e;
      } catch (UnsupportedOperationException | NumberFormatException e) {
        throw InvalidReminderException.of(
            field,
            "holds a number the JSON parser cannot read: at most "
                + MAX_NUMBER_CHARACTERS
                + " characters, with an exponent within "
                + Integer.MAX_VALUE);
      } catch (RuntimeException e) {
        throw InvalidReminderException.of(
            field, "is nested too deeply: at most " + MAX_DEPTH + " levels of arrays and objects");
      }
    }
    return object.build();
  }
}
