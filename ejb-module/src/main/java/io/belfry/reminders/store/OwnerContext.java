package io.belfry.reminders.store;

/**
 * The class loader of whoever built the engine (the deployment), for the scheduler's work on timer
 * and delivery threads and the key index's reads of the replica. A managed executor captures the
 * submitting thread's context, and runs are requested from cache notification threads too, whose
 * context is the clustering module's: in WildFly, cache keys are marshalled per class loader, so a
 * read under the wrong one misses every entry.
 */
public final class OwnerContext {

  private final ClassLoader ownerLoader;

  /** Takes the calling thread's context class loader as the owner's. */
  public OwnerContext() {
    this.ownerLoader = Thread.currentThread().getContextClassLoader();
  }

  /**
   * Switches this thread to the owner's class loader; returns the one to {@link #leave} back to.
   */
  public ClassLoader enter() {
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(ownerLoader);
    return previous;
  }

  public void leave(ClassLoader previous) {
    Thread.currentThread().setContextClassLoader(previous);
  }
}
