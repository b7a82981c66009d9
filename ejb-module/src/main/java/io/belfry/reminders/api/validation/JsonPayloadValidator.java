package io.belfry.reminders.api.validation;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ValidationLimits;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParser;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

public class JsonPayloadValidator implements ConstraintValidator<JsonPayload, ReminderRequest> {

  @Override
  public boolean isValid(ReminderRequest request, ConstraintValidatorContext context) {
    if (request == null || !request.hasJsonContentType()) {
      return true;
    }
    byte[] payload = request.getPayload();
    // Too large is reported by @PayloadSize; parsing it would only cost time.
    if (payload == null || payload.length > ValidationLimits.maxPayloadBytes()) {
      return true;
    }
    String problem = problemOf(payload);
    if (problem == null) {
      return true;
    }
    Violations.report(context, "payload", "is not well-formed JSON: " + problem);
    return false;
  }

  /** Why {@code json} is not exactly one JSON value, or {@code null} if it is. */
  static String problemOf(byte[] json) {
    // JSON travels as UTF-8 (RFC 8259). Decoded here, strictly, rather than by the parser: from
    // bytes it first guesses the encoding, and cannot with fewer than two, so "7" was refused.
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(json))
              .toString();
    } catch (CharacterCodingException e) {
      return "it is not UTF-8";
    }
    // Walking every event, not readValue(): the parser also rejects content after the value.
    try (JsonParser parser = JSON.createParser(new StringReader(text))) {
      if (!parser.hasNext()) {
        return "it is empty";
      }
      while (parser.hasNext()) {
        parser.next();
      }
      return null;
    } catch (JsonException e) {
      return e.getMessage();
    }
  }
}
