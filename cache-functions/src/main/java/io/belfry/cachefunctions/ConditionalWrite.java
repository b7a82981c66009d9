package io.belfry.cachefunctions;

import java.util.function.BiFunction;
import org.infinispan.functional.EntryView.ReadWriteEntryView;

/**
 * Writes a cache entry if it holds what the writer read: the conditional write of one key of a
 * group that the engine replicates as one functional command ({@code ReadWriteMap.evalMany})
 * instead of one {@code replace} or {@code putIfAbsent} per key. The argument of each key says what
 * it expects and what it writes ({@link ConditionalWrites#replacing}, {@link
 * ConditionalWrites#ifAbsent}); the result names the key and tells whether the write won ({@link
 * ConditionalWrites.Outcome}), since a group's results come back without their keys.
 *
 * <p>Infinispan runs the function on every owner of a key, not only on the primary owner that
 * decides: it must decide the same wherever the entry holds the same value. It does: it reads only
 * the entry and its argument. A value equal to the one it writes counts as won, because Infinispan
 * retries a command after a topology change, and the retry must not take the first attempt's write
 * (unique: every value the engine writes carries a random stamp) for another writer's.
 */
public final class ConditionalWrite
    implements BiFunction<String, ReadWriteEntryView<String, String>, String> {

  /** The function: it has no state, so one instance serves every command. */
  public static final ConditionalWrite INSTANCE = new ConditionalWrite();

  private ConditionalWrite() {}

  @Override
  public String apply(String argument, ReadWriteEntryView<String, String> entry) {
    String current = entry.find().orElse(null);
    String next = ConditionalWrites.next(argument);
    boolean won = next.equals(current) || ConditionalWrites.expects(argument, current);
    if (won && !next.equals(current)) {
      entry.set(next);
    }
    return ConditionalWrites.result(entry.key(), won, current);
  }
}
