package io.belfry.realm;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * API tokens this node found in {@code belfry_api_token} recently, by their hash, so that a machine
 * client's requests do not each cost a query: the lookup (H2 or PostgreSQL through the datasource's
 * pool) was about a sixth of a REST {@code PUT}'s request-thread time.
 *
 * <p>What keeps revocation immediate: tokens are remembered only while {@code belfry.war} listens
 * for revocations ({@link TokenRevocations}). Its {@code DELETE /tokens/{id}} deletes the row, then
 * writes the token's hash to a replicated cache, and each member's listener calls {@link #forget}
 * before that write returns; members that join, leave or merge forget everything. The ttl is a
 * backstop for a member that missed a revocation some other way (a row deleted by hand).
 *
 * <p>A lookup that read the table while a revocation was being announced could remember what it
 * read after the announcement had passed; {@link #generation()} prevents that: it is read before
 * the query, and a token read under an older generation is not kept.
 */
final class KnownTokens {

  /** This node's memory, shared by the realm Elytron made and the WAR's listener. */
  static final KnownTokens NODE = new KnownTokens(System::nanoTime);

  /**
   * Bound on remembered tokens; past it the memory starts over (a forgotten token costs a query).
   */
  static final int MAX_ENTRIES = 10_000;

  private record Known(TokenRows.StoredToken token, long untilNanos) {}

  private final Map<String, Known> byHash = new ConcurrentHashMap<>();
  private final AtomicLong generation = new AtomicLong();
  private final LongSupplier nanoTime;
  private volatile long ttlNanos = BelfryRealm.DEFAULT_TOKEN_TTL.toNanos();
  private volatile boolean listening;

  KnownTokens(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** How long a token is remembered at most; zero or less remembers nothing. */
  void ttlNanos(long ttlNanos) {
    this.ttlNanos = ttlNanos;
    forgetAll();
  }

  /** Whether revocations reach this node, so that remembering is safe. */
  void listening(boolean listening) {
    this.listening = listening;
    forgetAll();
  }

  /** Read before querying the table; hand it to {@link #remember}. */
  long generation() {
    return generation.get();
  }

  /** A token remembered, unexpired and within the ttl; empty means: ask the table. */
  Optional<TokenRows.StoredToken> recall(String hash, Instant now) {
    Known known = byHash.get(hash);
    if (known == null) {
      return Optional.empty();
    }
    Instant expiresAt = known.token().expiresAt();
    if (nanoTime.getAsLong() - known.untilNanos() >= 0
        || (expiresAt != null && !now.isBefore(expiresAt))) {
      byHash.remove(hash, known);
      return Optional.empty();
    }
    return Optional.of(known.token());
  }

  /** Remembers a token read from the table, unless a revocation passed since {@code readUnder}. */
  void remember(String hash, TokenRows.StoredToken token, long readUnder) {
    long ttl = ttlNanos;
    if (!listening || ttl <= 0 || generation.get() != readUnder) {
      return;
    }
    if (byHash.size() >= MAX_ENTRIES) {
      byHash.clear();
    }
    Known known = new Known(token, nanoTime.getAsLong() + ttl);
    byHash.put(hash, known);
    // a revocation may have bumped the generation between the check and the put: undo it then
    // (forget bumps before it removes, so one of the two removals sees the other's write)
    if (generation.get() != readUnder) {
      byHash.remove(hash, known);
    }
  }

  /** A token was revoked: forgotten before this returns, and no lookup in flight keeps it. */
  void forget(String hash) {
    generation.incrementAndGet();
    byHash.remove(hash);
  }

  /** Members changed, or the listener stopped: nothing remembered is trusted any longer. */
  void forgetAll() {
    generation.incrementAndGet();
    byHash.clear();
  }

  int size() {
    return byHash.size();
  }
}
