package io.belfry.reminders.placement;

/** The stream of writes and topology changes a node sees on the reminders cache. */
public interface ChangeFeed {

  /** Starts delivering changes to {@code sink}; at most one sink at a time. */
  void subscribe(ChangeSink sink);

  /** Stops delivering changes; idempotent. */
  void unsubscribe();
}
