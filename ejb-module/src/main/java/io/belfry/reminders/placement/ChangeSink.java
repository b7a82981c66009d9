package io.belfry.reminders.placement;

/**
 * Receives what a {@link ChangeFeed} observes. Called on Infinispan's notification threads, while a
 * write or a topology is being applied: implementations only record the change and hand it off,
 * never block, take no locks, do no I/O and never throw.
 */
public interface ChangeSink {

  /** {@code cacheKey} now holds {@code encoded} on this node (a local or replicated write). */
  void written(String cacheKey, byte[] encoded);

  /** {@code cacheKey} was removed on this node. */
  void removed(String cacheKey);

  /** The cache topology changed: primary segments may have moved to or away from this node. */
  void topologyChanged();

  /** Both sinks, {@code first} then {@code second}, for a feed that delivers to one sink. */
  static ChangeSink both(ChangeSink first, ChangeSink second) {
    return new ChangeSink() {
      @Override
      public void written(String cacheKey, byte[] encoded) {
        first.written(cacheKey, encoded);
        second.written(cacheKey, encoded);
      }

      @Override
      public void removed(String cacheKey) {
        first.removed(cacheKey);
        second.removed(cacheKey);
      }

      @Override
      public void topologyChanged() {
        first.topologyChanged();
        second.topologyChanged();
      }
    };
  }
}
