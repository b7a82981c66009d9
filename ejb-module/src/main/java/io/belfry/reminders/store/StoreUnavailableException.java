package io.belfry.reminders.store;

/**
 * The cache could not serve an operation because of the cluster's state, not because of the
 * operation: this node is in a minority partition (reads and writes are denied), a member it was
 * talking to left in the middle of the call, or the cache is stopping. A write that ends this way
 * may or may not have been applied; reading the key again tells which.
 */
public final class StoreUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
