package io.belfry.reminders.store;

import io.belfry.cachefunctions.ConditionalWrite;
import io.belfry.cachefunctions.ConditionalWrites;
import io.belfry.cachefunctions.ConditionalWrites.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.infinispan.AdvancedCache;
import org.infinispan.commons.marshall.Marshaller;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.factories.KnownComponentNames;
import org.infinispan.functional.FunctionalMap.ReadWriteMap;
import org.infinispan.functional.impl.FunctionalMapImpl;
import org.infinispan.functional.impl.ReadWriteMapImpl;
import org.jboss.logging.Logger;

/**
 * The conditional writes a thread issues inside {@link ReminderStore#writeTogether}, sent as one
 * {@link ConditionalWrite} command per group of up to {@link #GROUP} keys instead of one {@code
 * replace} or {@code putIfAbsent} each: Infinispan then replicates the group to each backup as one
 * message, and one write to its file store, where a command per key cost each member its own
 * (benchmarks/group-replication: 2–7 times the writes per second for a half to an eighth of the CPU
 * per write).
 *
 * <p>Only while every member's marshaller can carry the function: on WildFly the cache container
 * names the server module {@code io.belfry.cache-functions}, and the deployment sees the function's
 * class from that module ({@code Dependencies} of the engine's jar). A deployment that sees its own
 * copy of the class instead, or a cache whose marshaller cannot carry it, writes key by key, as
 * before (logged once at start: a warning where groups were asked for). Off by default: see {@link
 * #ENABLED}.
 */
final class GroupedWrites {

  private static final Logger LOG = Logger.getLogger(GroupedWrites.class);

  /**
   * The most keys in one command: the scheduler's commit group (Scheduler.COMMIT_GROUP); a larger
   * batch of sets is sent as several commands.
   */
  static final int GROUP = 512;

  /**
   * The system property that turns grouped writes on ({@code true}; default {@code false}): checked
   * when the engine starts (only {@code true} or {@code false}) and read again at each group, so
   * that it can be switched on a running server. Off by default: in a CI run of ChaosClusterIT on
   * WildFly (2026-11-29), a node restarted under load ran the function on keys in the form WildFly
   * stores a deployment's entries in ({@code ByteBufferMarshalledKey}, a ClassCastException in
   * {@link ConditionalWrite}), so every group with a key it owned failed. (That the node also did
   * not come up in time was the test's unpaced load, seen with groups off too.) Likely, not
   * verified: that node's deployment had not yet registered the conversion from that form. Belfry
   * now stores plain Strings ({@link PlainForm}), so a function meets that form no more. On the
   * plain form groups no longer pay: an A/B of batch sets on three WildFly nodes (2026-12-07,
   * docs/performance/comparison.md, "Grouped writes on the plain form") ran 8–14 % slower with them
   * on.
   */
  static final String ENABLED = "belfry.cache.grouped-writes";

  /** One write waiting for its group's command. */
  private record Pending(String key, String argument, CompletableFuture<Outcome> outcome) {}

  private final ReadWriteMap<String, String> functional;

  /** The writes of the group open on this thread; null when none is open. */
  private final ThreadLocal<Map<String, Pending>> open = new ThreadLocal<>();

  private GroupedWrites(AdvancedCache<String, String> commands) {
    this.functional = ReadWriteMapImpl.create(FunctionalMapImpl.create(commands));
  }

  /**
   * Grouped writes on {@code commands}, if its members can run them: always on a cache of one
   * member, which marshals no command; on a clustered one, only if the cache's marshaller can
   * marshal {@link ConditionalWrite} as this deployment sees it.
   */
  static Optional<GroupedWrites> on(AdvancedCache<String, String> commands) {
    String enabled = System.getProperty(ENABLED, "false");
    if (!enabled.equals("true") && !enabled.equals("false")) {
      throw new IllegalArgumentException(ENABLED + " must be true or false, not " + enabled);
    }
    if (enabled.equals("true")) {
      LOG.infof("BELFRY-0012 Grouped writes are on (%s=true)", ENABLED);
    }
    if (!commands.getCacheConfiguration().clustering().cacheMode().isClustered()) {
      return Optional.of(new GroupedWrites(commands));
    }
    String unavailable;
    try {
      Marshaller user =
          ComponentRegistry.componentOf(
              commands, Marshaller.class, KnownComponentNames.USER_MARSHALLER);
      unavailable =
          user == null
              ? "the cache has no user marshaller"
              : user.isMarshallable(ConditionalWrite.INSTANCE)
                  ? null
                  : "the cache's marshaller cannot carry " + ConditionalWrite.class.getName();
    } catch (Exception | LinkageError e) {
      unavailable = e.toString();
    }
    if (unavailable != null) {
      // a warning only where groups were asked for; off (the default), nothing is lost
      LOG.logf(
          enabled.equals("true") ? Logger.Level.WARN : Logger.Level.DEBUG,
          "BELFRY-0010 Writes go to the cluster one key at a time, not in groups: %s. On WildFly,"
              + " the belfry cache container names the module io.belfry.cache-functions"
              + " (configure-cache.cli) and the deployment depends on it (the engine jar's"
              + " manifest says so; docs/user-guide.md)",
          unavailable);
      return Optional.empty();
    }
    LOG.debugf("BELFRY-0011 Writes of a group go to the cluster as one command");
    return Optional.of(new GroupedWrites(commands));
  }

  /** Runs {@code writes}; see {@link ReminderStore#writeTogether}. */
  void together(Runnable writes) {
    if (open.get() != null || !"true".equals(System.getProperty(ENABLED))) {
      writes.run(); // nested (the outer group sends them), or groups are off: each goes alone
      return;
    }
    open.set(new LinkedHashMap<>());
    try {
      writes.run();
    } finally {
      Map<String, Pending> last = open.get();
      open.remove();
      send(last);
    }
  }

  /**
   * Adds the write of {@code argument} to {@code key} to this thread's open group, or returns null
   * when no group is open.
   */
  CompletableFuture<Outcome> add(String key, String argument) {
    Map<String, Pending> group = open.get();
    if (group == null) {
      return null;
    }
    if (group.containsKey(key) || group.size() >= GROUP) {
      // a second write of a key waits for the first's command; a full group goes now
      open.set(new LinkedHashMap<>());
      send(group);
      group = open.get();
    }
    Pending pending = new Pending(key, argument, new CompletableFuture<>());
    group.put(key, pending);
    return pending.outcome();
  }

  /** Whether a group is open on this thread: writes issued now may join it. */
  boolean isOpen() {
    return open.get() != null;
  }

  /**
   * Sends one group and completes its writes' stages; never throws. Called with no group open on
   * this thread at the end of a block, so that what the stages' callbacks write then goes on its
   * own; a full group sent in the middle of a block is sent with the next group already open.
   */
  private void send(Map<String, Pending> group) {
    if (group.isEmpty()) {
      return;
    }
    Map<String, String> arguments = new LinkedHashMap<>();
    group.forEach((key, pending) -> arguments.put(key, pending.argument()));
    List<Outcome> outcomes = new ArrayList<>(group.size());
    try {
      functional
          .evalMany(arguments, ConditionalWrite.INSTANCE)
          .forEach(result -> outcomes.add(Outcome.of(result)));
    } catch (RuntimeException e) {
      RuntimeException failure = InfinispanReminderStore.translated(e);
      group.values().forEach(pending -> pending.outcome().completeExceptionally(failure));
      return;
    }
    for (Outcome outcome : outcomes) {
      Pending pending = group.get(outcome.key());
      if (pending != null) {
        pending.outcome().complete(outcome);
      }
    }
    for (Pending pending : group.values()) {
      // not expected: every key of the command answers; a write left unanswered is unknown
      pending
          .outcome()
          .completeExceptionally(
              new StoreUnavailableException(
                  "no answer for " + pending.key() + " in its group's command", null));
    }
  }

  /** The argument of a write of {@code next} over {@code expected} (null: over no entry). */
  static String argument(String expected, String next) {
    return expected == null
        ? ConditionalWrites.ifAbsent(next)
        : ConditionalWrites.replacing(expected, next);
  }
}
