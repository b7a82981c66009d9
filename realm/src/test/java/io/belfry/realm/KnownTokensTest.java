package io.belfry.realm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the node's memory of tokens keeps, and the revocation races it must not lose. */
class KnownTokensTest {

  private static final Instant NOW = Instant.parse("2026-11-27T09:00:00Z");

  private final AtomicLong nanos = new AtomicLong();
  private final KnownTokens known = new KnownTokens(nanos::get);

  @BeforeEach
  void listening() {
    known.listening(true);
  }

  @Test
  void lookupReadBeforeARevocation_isNotRemembered() {
    long readUnder = known.generation();
    known.forget("h1"); // announced while the lookup was reading the table
    known.remember("h1", token(null), readUnder);

    assertThat(known.recall("h1", NOW)).isEmpty();
  }

  @Test
  void membersChanged_forgetsEverything() {
    known.remember("h1", token(null), known.generation());
    known.remember("h2", token(null), known.generation());

    known.forgetAll();

    assertThat(known.recall("h1", NOW)).isEmpty();
    assertThat(known.recall("h2", NOW)).isEmpty();
  }

  @Test
  void expiryIsHonouredFromMemory() {
    known.remember("h1", token(NOW.plusSeconds(1)), known.generation());

    assertThat(known.recall("h1", NOW)).isPresent();
    assertThat(known.recall("h1", NOW.plusSeconds(1))).as("at its expiry").isEmpty();
  }

  @Test
  void listenerGone_forgetsAndStopsRemembering() {
    known.remember("h1", token(null), known.generation());

    known.listening(false);
    known.remember("h2", token(null), known.generation());

    assertThat(known.recall("h1", NOW)).isEmpty();
    assertThat(known.recall("h2", NOW)).isEmpty();
  }

  @Test
  void boundedMemory_startsOverPastItsBound() {
    for (int i = 0; i <= KnownTokens.MAX_ENTRIES; i++) {
      known.remember("h" + i, token(null), known.generation());
    }
    assertThat(known.size()).isEqualTo(1);
  }

  private static TokenRows.StoredToken token(Instant expiresAt) {
    return new TokenRows.StoredToken("id", "ci", List.of("belfry-viewer"), expiresAt);
  }
}
