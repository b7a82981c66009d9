package io.belfry.reminders.engine;

import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.fire.Scheduler;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.CacheChangeFeed;
import io.belfry.reminders.placement.CacheOwnership;
import io.belfry.reminders.placement.ChangeFeed;
import io.belfry.reminders.placement.ChangeSink;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.placement.ReplicaSettling;
import io.belfry.reminders.schedule.Bounds;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.Occurrence;
import io.belfry.reminders.schedule.Timeline;
import io.belfry.reminders.store.InfinispanReminderStore;
import io.belfry.reminders.store.KeyIndex;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoreUnavailableException;
import io.belfry.reminders.store.StoredReminder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.infinispan.Cache;
import org.infinispan.remoting.transport.Address;
import org.jboss.logging.Logger;

/**
 * The engine of one node, as plain Java: set, get, cancel and list reminders, and fire the ones
 * this node owns. The CDI layer wraps one instance per deployment.
 *
 * <p>Every write is a loop of read + conditional write on the exact bytes read, so that concurrent
 * sets, cancels and fires on any node serialise on the entry. A set mints a version from the hybrid
 * logical clock and never overwrites a higher one: it observes the newer version and mints again.
 *
 * <p>Without a {@linkplain Builder#timer timer} the engine never fires by itself: tests drive it
 * with a {@link io.belfry.reminders.schedule.SettableClock} and {@link #tick()}.
 */
public final class ReminderEngine {

  private static final Logger LOG = Logger.getLogger(ReminderEngine.class);

  /** A write loses a race only to another write; this many in a row means something is wrong. */
  private static final int MAX_WRITE_ATTEMPTS = 100;

  /**
   * After this many attempts, each later one reads the key back with its replicas settled ({@link
   * ReminderStore#readBack}) rather than from this node's replica: a conditional write decided by
   * the primary owner loses every race while this node's replica differs from the primary's (a
   * replica that missed a write while a member joined was seen to make every set of its key through
   * this node lose 100 times and answer 503 until JoinWrites settled it).
   */
  private static final int ATTEMPTS_BEFORE_SETTLING = 2;

  /**
   * Longer than a view change takes to reach every member (milliseconds) and than the failover
   * after a crash (about a second), short enough for an HTTP client to wait.
   */
  public static final int DEFAULT_UNAVAILABLE_PATIENCE_SECONDS = 3;

  static final Duration DEFAULT_UNAVAILABLE_PATIENCE =
      Duration.ofSeconds(DEFAULT_UNAVAILABLE_PATIENCE_SECONDS);

  private final ReminderStore store;
  private final Ownership ownership;
  private final Executor background;
  private final ChangeFeed feed;
  private final HybridLogicalClock versions;
  private final Clock clock;
  private final EngineListener listener;
  private final Scheduler scheduler;
  private final Duration unavailablePatience;
  private boolean started;

  /** The replica's keys in order while started; a reader before start builds its own. */
  private volatile KeyIndex keys;

  private final RecordListing listing = new RecordListing(this::get);

  ReminderEngine(ReminderEngineBuilder b) {
    this.store = b.store;
    this.ownership = b.ownership;
    this.background = b.background;
    this.feed = b.feed;
    this.clock = b.clock;
    this.versions = b.versions != null ? b.versions : new HybridLogicalClock(b.clock::millis);
    this.listener = b.listener;
    this.unavailablePatience = b.unavailablePatience;
    this.scheduler =
        new Scheduler(
            b.store,
            b.ownership,
            b.servedNamespaces,
            versions,
            b.clock,
            b.timer,
            b.deliveryExecutor,
            Objects.requireNonNull(b.delivery, "delivery is required"),
            b.listener,
            b.settings,
            b.resurrectionGuard,
            b.atLeastOnce);
  }

  /** An engine on the replicated reminders cache. */
  public static ReminderEngineBuilder builder(Cache<String, String> cache) {
    return builder(cache, member -> true);
  }

  /**
   * An engine on the replicated reminders cache that fires a segment whose primary owner's engine
   * is not {@code engineReady} yet, when this node is the first member whose engine is ({@link
   * CacheOwnership}); tell it of changes with {@link #firingMembersChanged()}.
   */
  public static ReminderEngineBuilder builder(
      Cache<String, String> cache, Predicate<Address> engineReady) {
    return new ReminderEngineBuilder(
        new InfinispanReminderStore(cache, new ReplicaSettling(cache)::settleIfDiffering),
        new CacheOwnership(cache, engineReady),
        new CacheChangeFeed(cache));
  }

  /** An engine on any store, ownership and change feed (e.g. fakes in unit tests). */
  public static ReminderEngineBuilder builder(
      ReminderStore store, Ownership ownership, ChangeFeed feed) {
    return new ReminderEngineBuilder(store, ownership, feed);
  }

  // --- Lifecycle ------------------------------------------------------------------------------

  /**
   * Recovery and start: subscribes to writes and topology changes, advances the clock past every
   * stored version, arms the owned pending reminders (overdue ones fire under the backfill rate)
   * and, with a timer, starts firing. With a timer, recovery goes on in steps after this returns
   * ({@link #recovered()}).
   */
  public synchronized void start() {
    if (started) {
      return;
    }
    // with a background executor, the index reads the replica again after a topology change there
    // (seconds per million reminders): not on the timer, whose few threads fire, and not on the
    // thread of the first request that needs it. But not before recovery has armed everything:
    // what fires first is what users wait for, and beside recovery the index's read took four
    // times recovery's CPU (a WildFly node restarting onto 8.36 million reminders,
    // docs/performance/scale.md); a reader that needs the index sooner reads it itself.
    // Its passes keep the key Strings the scheduler's hints hold rather than copies of their own.
    KeyIndex index =
        new KeyIndex(store, ownership, background, scheduler::recovered, scheduler::shareHeldKeys);
    feed.subscribe(ChangeSink.both(index, scheduler));
    keys = index;
    // and the hints it arms from later reads of the store keep the index's Strings
    scheduler.attach(index::readDeferred, index::keptKey);
    scheduler.start();
    // with memory bounded, read early, so that sets of new keys can skip their read of the store
    // (isSurelyNew), a lookup on disk there; otherwise that read is in memory, and reading the
    // whole replica at every start (seconds per million reminders, beside recovery) would not pay
    if (store.readsThroughToDisk()) {
      index.readInBackground();
    }
    if (scheduler.recovered()) { // driven by hand; with a timer, whenRecovered runs it
      index.readDeferred();
    }
    started = true;
    LOG.infof(
        "BELFRY-0001 Reminder engine started; %s",
        scheduler.recovered()
            ? armedCount() + " reminders armed on this node"
            : "arming what this node owns, firing as it goes");
  }

  /** Which members' engines are ready changed: the segments this node fires are read again. */
  public void firingMembersChanged() {
    scheduler.ownersChanged();
  }

  /**
   * Whether this node holds what it needs to fire its share at once (see {@link
   * Scheduler#armedForShare()}): when a joiner that holds back announces itself.
   */
  public boolean armedForShare() {
    return scheduler.armedForShare();
  }

  /** How many gained segments this node read from its store before arming them; for tests. */
  public long segmentsGainedFromStore() {
    return scheduler.segmentsGainedFromStore();
  }

  /**
   * Whether recovery has read every stored entry since {@link #start()}: with a timer it runs in
   * steps after start returns, firing overdue reminders as it finds them; by hand it is done when
   * start returns.
   */
  public boolean recovered() {
    return scheduler.recovered();
  }

  /** Stops firing on this node; stored reminders are untouched and fire elsewhere or later. */
  public synchronized void stop() {
    if (!started) {
      return;
    }
    feed.unsubscribe();
    scheduler.stop();
    keys = null;
    started = false;
  }

  /**
   * One scheduler run at the clock's current time (manual driver): applies replicated writes and
   * topology changes, sweeps if the scan interval passed, fires what is due.
   *
   * @return how many fires were handed to delivery
   */
  public int tick() {
    return scheduler.runDue();
  }

  /** Sweeps every owned segment now: re-arms missed entries, purges expired tombstones. */
  public void sweep() {
    scheduler.sweepAll();
  }

  /** Renews the leases of this node's at-least-once deliveries now (a timer does it otherwise). */
  public void renewLeases() {
    scheduler.renewLeases();
  }

  /** How many at-least-once deliveries are under way on this node. */
  public int deliveriesInFlight() {
    return scheduler.deliveriesInFlight();
  }

  /** The scheduler, for tests of this package. */
  Scheduler scheduler() {
    return scheduler;
  }

  /** How many reminders this node has armed; for health and tests. */
  public int armedCount() {
    return scheduler.armedCount();
  }

  /**
   * How many hints this node keeps for reminders of segments it does not own, to arm them at once
   * should it gain those segments; for tests.
   */
  public int standbyCount() {
    return scheduler.standbyCount();
  }

  /** The versions clock of this node (e.g. for health); read-only use. */
  public long lastVersion() {
    return versions.lastVersion();
  }

  // --- Reminders ------------------------------------------------------------------------------

  /**
   * Stores a new version of {@code spec.id()}, replacing any live one; once this returns, a
   * replaced version can no longer be committed to fire (a delivery already committed may still be
   * under way).
   *
   * @throws IllegalArgumentException if the bounds end the timeline before its first occurrence
   */
  public SetResult set(ReminderSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return write(spec, firstOccurrence(spec), null);
  }

  /**
   * {@link #set} for many reminders of distinct ids, in one go ({@link BatchSet}): the first write
   * of each is issued before any is waited for, so that a batch shares the cluster's round trips
   * instead of paying one replicated write after the other. A write that loses a race, or whose
   * outcome the cluster could not tell, goes on alone as {@code set} would. Returns once every one
   * is stored, the results in the order of {@code specs}; what {@code set} promises then holds for
   * each. If one fails for good, the others are left as the batch set them or as they were, and the
   * failure is thrown.
   *
   * @throws IllegalArgumentException if one's bounds end its timeline before its first occurrence
   *     (checked for all before anything is written)
   */
  public List<SetResult> setAll(List<ReminderSpec> specs) {
    return new BatchSet(this, store, clock).setAll(specs);
  }

  Occurrence firstOccurrence(ReminderSpec spec) {
    return timeline(spec)
        .first(spec.firstDue(), clock.now())
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "reminder "
                        + spec.id().cacheKey()
                        + " would never fire: its end time or"
                        + " maximum count ends it before the first occurrence"));
  }

  /**
   * Writes a new version of {@code spec}, attempt after attempt until one wins; {@code unconfirmed}
   * is an earlier attempt whose outcome is not known, to be taken as the result if it was stored.
   */
  SetResult write(ReminderSpec spec, Occurrence first, SetResult unconfirmed) {
    long now = clock.millis();
    UnavailableWait wait = new UnavailableWait(spec.id(), unavailablePatience);
    for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      try {
        Optional<StoredReminder> existing =
            attempt == 0 && unconfirmed == null && isSurelyNew(spec.id())
                ? Optional.empty()
                : readForWrite(spec.id(), unconfirmed != null, attempt);
        if (unconfirmed != null && isStored(existing, unconfirmed.record())) {
          // the write that failed with an unknown outcome had been applied
          return announced(unconfirmed);
        }
        Optional<SetResult> next = nextVersion(spec, first, existing, now);
        if (next.isEmpty()) {
          continue; // written by a node whose clock is ahead: the next mint passes it
        }
        unconfirmed = next.get();
        boolean written =
            existing.isEmpty()
                ? store.putIfAbsent(unconfirmed.record()).isEmpty()
                : store.replace(existing.get(), unconfirmed.record());
        if (written) {
          return announced(unconfirmed);
        }
        unconfirmed = null;
      } catch (StoreUnavailableException e) {
        wait.pauseAfter(e);
      }
    }
    throw lostRaces(spec.id(), "set");
  }

  /**
   * Every attempt lost its race: what this node read of the key kept differing from what its
   * primary owner holds. Seen while a node joined and its replica had missed a write ({@code
   * JoinWrites} settles such keys once the rebalance ends): a 503 to retry, not a server error.
   */
  private static RemindersUnavailableException lostRaces(ReminderId id, String operation) {
    String detail =
        "Could not %s %s: %d lost races".formatted(operation, id.cacheKey(), MAX_WRITE_ATTEMPTS);
    return new RemindersUnavailableException(
        id.namespace(), id.key(), new IllegalStateException(detail));
  }

  /**
   * Whether the key index says no entry exists for {@code id}, so that a set can go straight to
   * {@code putIfAbsent} without reading the store first. With memory bounded that read is a lookup
   * in the file store's index for every new key. A hint: if the entry exists after all, the
   * putIfAbsent fails and the next attempt reads it.
   */
  boolean isSurelyNew(ReminderId id) {
    KeyIndex index = keys;
    return index != null && index.lacks(id.cacheKey());
  }

  /**
   * The next version of {@code spec} over the {@code existing} entry, still to be written (by
   * {@link #write} or {@link BatchSet}); empty when the stored version is ahead of this node's
   * clock, which is then observed so that the next mint passes it.
   */
  Optional<SetResult> nextVersion(
      ReminderSpec spec, Occurrence first, Optional<StoredReminder> existing, long now) {
    long version = versions.mint();
    if (existing.isPresent() && existing.get().record().version() >= version) {
      versions.observe(existing.get().record().version());
      return Optional.empty();
    }
    Optional<ReminderRecord> live =
        existing.map(StoredReminder::record).filter(r -> !r.isTombstone());
    return Optional.of(
        new SetResult(live.isEmpty(), record(spec, version, first, live, now), live));
  }

  SetResult announced(SetResult result) {
    if (result.replaced().isPresent()) {
      announce(() -> listener.replaced(result.replaced().get(), result.record()));
    } else {
      announce(() -> listener.set(result.record()));
    }
    return result;
  }

  /**
   * What a write loop reads before its next attempt: the key with its replicas settled after a lost
   * answer, after {@link #ATTEMPTS_BEFORE_SETTLING} lost races, or while the replicas may differ (a
   * recent topology change); otherwise this node's replica.
   */
  private Optional<StoredReminder> readForWrite(ReminderId id, boolean unconfirmed, int attempt) {
    return unconfirmed || attempt >= ATTEMPTS_BEFORE_SETTLING || store.replicasMayDiffer()
        ? store.readBack(id)
        : store.get(id);
  }

  static boolean isStored(Optional<StoredReminder> entry, ReminderRecord record) {
    return entry.isPresent() && entry.get().record().equals(record);
  }

  /** What is stored under {@code id}: the live version or its tombstone. */
  public Optional<ReminderRecord> get(ReminderId id) {
    try {
      return store.get(id).map(StoredReminder::record);
    } catch (StoreUnavailableException e) {
      throw new RemindersUnavailableException(id.namespace(), id.key(), e);
    }
  }

  /**
   * Cancels the live version of {@code id}: it will not fire (a delivery already committed may
   * still be under way). A dead letter is live in this sense: cancelling it drops it.
   *
   * @return the tombstone now stored
   * @throws ReminderNotFoundException if there is no live version
   */
  public ReminderRecord cancel(ReminderId id) {
    ReminderRecord tombstone =
        rewrite(
            id,
            "cancel",
            live -> {
              if (live.isTombstone()) {
                throw new ReminderNotFoundException(id.namespace(), id.key());
              }
              return live.tombstone(ReminderState.CANCELLED, clock.millis());
            });
    announce(() -> listener.cancelled(tombstone));
    return tombstone;
  }

  /**
   * Sends a dead letter again: it becomes pending, due now, with the same fence and fresh attempts.
   *
   * @return the pending entry now stored
   * @throws ReminderNotFoundException if {@code id} holds no dead letter
   */
  public ReminderRecord redeliver(ReminderId id) {
    ReminderRecord pending =
        rewrite(
            id,
            "redeliver",
            stored -> {
              if (stored.state() != ReminderState.DEAD_LETTER) {
                throw new ReminderNotFoundException(id.namespace(), id.key());
              }
              return stored.redelivered(versions.mintAfter(stored.version()), clock.millis());
            });
    announce(() -> listener.redeliveryRequested(pending));
    return pending;
  }

  /**
   * The write loop of an operation on a stored entry: read it, derive its successor ({@code next}
   * throws when the entry does not allow the operation), replace exactly what was read, and start
   * over if someone else wrote first. While the cluster cannot take the write it waits, and a write
   * whose answer was lost is recognised by reading it back, so it is neither applied twice nor
   * reported as missing.
   */
  private ReminderRecord rewrite(
      ReminderId id, String operation, UnaryOperator<ReminderRecord> next) {
    Objects.requireNonNull(id, "id");
    UnavailableWait wait = new UnavailableWait(id, unavailablePatience);
    ReminderRecord unconfirmed = null;
    for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      try {
        Optional<StoredReminder> existing = readForWrite(id, unconfirmed != null, attempt);
        if (unconfirmed != null && isStored(existing, unconfirmed)) {
          return unconfirmed;
        }
        if (existing.isEmpty()) {
          throw new ReminderNotFoundException(id.namespace(), id.key());
        }
        unconfirmed = next.apply(existing.get().record());
        if (store.replace(existing.get(), unconfirmed)) {
          return unconfirmed;
        }
        unconfirmed = null;
      } catch (StoreUnavailableException e) {
        wait.pauseAfter(e);
      }
    }
    throw lostRaces(id, operation);
  }

  /**
   * One page of reminders from this node's replica, in cache-key order. Walks the ordered key index
   * from the cursor (or the prefix) and reads each key whose summary passes the filters until the
   * page is full ({@link RecordListing}).
   */
  public RecordPage list(ListQuery query) {
    Objects.requireNonNull(query, "query");
    return listing.page(keyIndex(), query);
  }

  /**
   * This node's replica in key order with its counts, kept up to date as it changes once the engine
   * has started ({@link KeyIndex}); before that, one read of the replica per call.
   */
  public KeyIndex keyIndex() {
    KeyIndex index = keys;
    return index != null ? index : new KeyIndex(store, ownership);
  }

  private static Timeline timeline(ReminderSpec spec) {
    return Timeline.of(
        spec.schedule(),
        new Bounds(
            spec.until(),
            spec.maxOccurrences() == null ? null : spec.maxOccurrences().longValue()));
  }

  private static ReminderRecord record(
      ReminderSpec spec, long version, Occurrence first, Optional<ReminderRecord> live, long now) {
    return new ReminderRecord(
        spec.id(),
        version,
        ReminderState.PENDING,
        spec.schedule(),
        first.due().toEpochMilli(),
        first.number(),
        spec.until() == null ? null : spec.until().toEpochMilli(),
        spec.maxOccurrences(),
        spec.misfire(),
        spec.deadline() == null ? null : spec.deadline().toMillis(),
        spec.delivery(),
        spec.payload(),
        spec.contentType(),
        live.map(ReminderRecord::createdAtMillis).orElse(now),
        now);
  }

  private static void announce(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0002 Engine listener failed");
    }
  }
}
