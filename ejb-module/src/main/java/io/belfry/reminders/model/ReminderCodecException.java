package io.belfry.reminders.model;

/** Bytes that are not a reminder value this version of Belfry can read. */
public final class ReminderCodecException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ReminderCodecException(String message) {
    super(message);
  }

  public ReminderCodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
