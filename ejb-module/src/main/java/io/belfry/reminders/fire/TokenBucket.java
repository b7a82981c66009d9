package io.belfry.reminders.fire;

/**
 * Limits how fast overdue fires start: a token bucket (Turner, 1986) of capacity {@code rate}
 * tokens refilled continuously at {@code rate} per second, so a burst of one second's worth passes
 * at once and the backlog then drains at the rate. Time is an argument; not thread-safe (the
 * scheduler calls it under its lock).
 */
final class TokenBucket {

  private final double perMilli;
  private final double capacity;
  private double tokens;
  private long lastMillis;
  private boolean started;

  TokenBucket(int perSecond) {
    this.perMilli = perSecond / 1000.0;
    this.capacity = perSecond;
    this.tokens = perSecond;
  }

  /** Takes a token if one is available at {@code nowMillis}. */
  boolean tryAcquire(long nowMillis) {
    refill(nowMillis);
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }

  /**
   * Whether a token is available at {@code nowMillis} beyond {@code reserved} ones promised to
   * fires not yet committed; takes none.
   */
  boolean hasToken(long nowMillis, int reserved) {
    refill(nowMillis);
    return tokens >= reserved + 1;
  }

  /** When the next token will be available, at the earliest. */
  long nextTokenAt(long nowMillis) {
    refill(nowMillis);
    return tokens >= 1 ? nowMillis : nowMillis + (long) Math.ceil((1 - tokens) / perMilli);
  }

  private void refill(long nowMillis) {
    if (!started) {
      started = true;
      lastMillis = nowMillis;
      return;
    }
    // A clock that went backwards neither refills nor drains.
    if (nowMillis > lastMillis) {
      tokens = Math.min(capacity, tokens + (nowMillis - lastMillis) * perMilli);
      lastMillis = nowMillis;
    }
  }
}
