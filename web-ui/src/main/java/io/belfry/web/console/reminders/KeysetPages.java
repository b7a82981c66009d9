package io.belfry.web.console.reminders;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * Offset/limit windows (what a lazy grid asks for) served from a keyset-paged source (what the
 * store offers: a page after a cursor). Remembers the cursor at every offset it has reached, so
 * scrolling on costs one page fetch; a jump ahead walks from the nearest known offset. A new filter
 * needs a new instance.
 *
 * @param <T> the item type
 */
public final class KeysetPages<T> {

  /** One page of the source: items, and the cursor after them ({@code null} at the end). */
  public record Page<T>(List<T> items, String next) {}

  /** The largest page asked of the source. */
  static final int MAX_PAGE = 1000;

  private final BiFunction<String, Integer, Page<T>> source;
  // offset -> cursor of the item at that offset; offset 0 has no cursor
  private final NavigableMap<Integer, String> cursors = new TreeMap<>();
  private Integer end;

  /**
   * @param source fetches up to {@code limit} items after {@code cursor} ({@code null}: from the
   *     start)
   */
  public KeysetPages(BiFunction<String, Integer, Page<T>> source) {
    this.source = source;
    cursors.put(0, null);
  }

  public synchronized Stream<T> window(int offset, int limit) {
    if (end != null && offset >= end) {
      return Stream.empty();
    }
    var known = cursors.floorEntry(offset);
    int position = known.getKey();
    String cursor = known.getValue();
    List<T> result = new ArrayList<>(limit);
    while (result.size() < limit) {
      int skip = Math.max(0, offset - position);
      int want = Math.min(MAX_PAGE, skip + limit - result.size());
      Page<T> page = source.apply(cursor, want);
      List<T> items = page.items();
      for (int i = skip; i < items.size() && result.size() < limit; i++) {
        result.add(items.get(i));
      }
      position += items.size();
      if (page.next() == null || items.isEmpty()) {
        end = position;
        break;
      }
      cursor = page.next();
      cursors.put(position, cursor);
    }
    return result.stream();
  }
}
