package io.belfry.reminders.sink;

/**
 * A fire could not be forwarded to a sink. Thrown out of the delivery, so the engine treats it as a
 * failed delivery: audited under at-most-once, retried under at-least-once. The message says which
 * sink and why; it becomes the {@code detail} of the {@code DELIVERY_FAILED} audit record.
 */
public class SinkException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SinkException(String message) {
    super(message);
  }

  public SinkException(String message, Throwable cause) {
    super(message, cause);
  }
}
