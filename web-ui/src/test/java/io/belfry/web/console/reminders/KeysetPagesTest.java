package io.belfry.web.console.reminders;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class KeysetPagesTest {

  private final List<String> all =
      IntStream.range(0, 1234).mapToObj(i -> String.format("k%05d", i)).toList();
  private final List<String> calls = new ArrayList<>();

  private KeysetPages.Page<String> page(String cursor, int limit) {
    calls.add(cursor + "/" + limit);
    int from = cursor == null ? 0 : all.indexOf(cursor) + 1;
    int to = Math.min(all.size(), from + limit);
    List<String> items = all.subList(from, to);
    return new KeysetPages.Page<>(items, to < all.size() ? items.get(items.size() - 1) : null);
  }

  @Test
  void window_sequentialScroll_matchesOffsetsAndFetchesOnePagePerWindow() {
    KeysetPages<String> pages = new KeysetPages<>(this::page);
    for (int offset = 0; offset < 1300; offset += 50) {
      int expectedEnd = Math.min(all.size(), offset + 50);
      List<String> expected = offset >= all.size() ? List.of() : all.subList(offset, expectedEnd);
      assertThat(pages.window(offset, 50).toList()).isEqualTo(expected);
    }
    assertThat(calls).hasSize(25);
  }

  @Test
  void window_jumpAhead_walksFromTheStartAndThenRemembers() {
    KeysetPages<String> pages = new KeysetPages<>(this::page);
    assertThat(pages.window(1100, 50).toList()).isEqualTo(all.subList(1100, 1150));
    calls.clear();
    assertThat(pages.window(1150, 50).toList()).isEqualTo(all.subList(1150, 1200));
    assertThat(calls).hasSize(1);
  }
}
