package io.belfry.reminders.store;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import java.util.List;
import java.util.function.UnaryOperator;
import org.infinispan.Cache;
import org.infinispan.conflict.EntryMergePolicy;
import org.infinispan.container.entries.CacheEntry;
import org.infinispan.encoding.DataConversion;

/**
 * Belfry's rule for replicas that disagree (after a partition heals, or when nodes' file stores
 * differ): the entry with the higher version wins; on equal versions a tombstone wins over a live
 * entry, so that a fired or cancelled reminder never comes back. An entry is never dropped because
 * another replica lacks it: a replica without the key may have missed an acknowledged set, or have
 * purged a tombstone, and only the first is worth keeping (the purged case is the resurrection the
 * audit guards against).
 *
 * <p>Conflict resolution hands the policy entries in the cache's storage form (encoded, in
 * WildFly): they are decoded with the cache's own conversions only to compare them.
 */
public final class VersionMerge implements EntryMergePolicy<String, String> {

  private final UnaryOperator<Object> keyFromStorage;
  private final UnaryOperator<Object> valueFromStorage;

  /** For entries whose keys and values are stored as the plain Strings Belfry writes. */
  public VersionMerge() {
    this(UnaryOperator.identity(), UnaryOperator.identity());
  }

  public VersionMerge(
      UnaryOperator<Object> keyFromStorage, UnaryOperator<Object> valueFromStorage) {
    this.keyFromStorage = keyFromStorage;
    this.valueFromStorage = valueFromStorage;
  }

  /** For this cache's entries, in whatever form it stores them. */
  public static VersionMerge of(Cache<String, String> cache) {
    DataConversion keys = cache.getAdvancedCache().getKeyDataConversion();
    DataConversion values = cache.getAdvancedCache().getValueDataConversion();
    return new VersionMerge(keys::fromStorage, values::fromStorage);
  }

  @Override
  public CacheEntry<String, String> merge(
      CacheEntry<String, String> preferredEntry, List<CacheEntry<String, String>> otherEntries) {
    CacheEntry<String, String> winner = preferredEntry;
    for (CacheEntry<String, String> other : otherEntries) {
      winner = newer(winner, other);
    }
    return winner;
  }

  /** The one of two replicas of a key to keep; {@code a} when they tie or neither decodes. */
  private CacheEntry<String, String> newer(
      CacheEntry<String, String> a, CacheEntry<String, String> b) {
    ReminderRecord first = decode(a);
    ReminderRecord second = decode(b);
    if (second == null) {
      return present(a) || !present(b) ? a : b;
    }
    if (first == null) {
      return b;
    }
    return beats(second, first) ? b : a;
  }

  /**
   * The rule on two cache values of {@code cacheKey} as Belfry writes them; false when either does
   * not decode (not Belfry's entry, or damaged), so that what the key holds is kept.
   */
  public static boolean beats(String cacheKey, String challenger, String holder) {
    try {
      ReminderId id = ReminderId.fromCacheKey(cacheKey);
      return beats(
          ReminderCodec.decode(id, CacheValues.fromCache(challenger)),
          ReminderCodec.decode(id, CacheValues.fromCache(holder)));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether {@code challenger} replaces {@code holder} under Belfry's rule: a higher version, or
   * the tombstone of the same version.
   */
  public static boolean beats(ReminderRecord challenger, ReminderRecord holder) {
    if (challenger.version() != holder.version()) {
      return challenger.version() > holder.version();
    }
    return challenger.isTombstone() && !holder.isTombstone();
  }

  private static boolean present(CacheEntry<String, String> entry) {
    return entry != null && entry.getValue() != null;
  }

  private ReminderRecord decode(CacheEntry<String, String> entry) {
    if (entry == null || entry.getValue() == null || entry.getKey() == null) {
      return null;
    }
    try {
      Object key = keyFromStorage.apply(entry.getKey());
      Object value = valueFromStorage.apply(entry.getValue());
      if (!(key instanceof String cacheKey) || !(value instanceof String encoded)) {
        return null;
      }
      return ReminderCodec.decode(
          ReminderId.fromCacheKey(cacheKey), CacheValues.fromCache(encoded));
    } catch (RuntimeException e) {
      return null; // not a reminder (or unreadable): never preferred over one that decodes
    }
  }
}
