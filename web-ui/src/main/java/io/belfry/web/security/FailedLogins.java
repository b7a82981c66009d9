package io.belfry.web.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Failed logins counted per client address, on this node: after {@code maxFailures} within the
 * lockout interval of the first one, the address is refused for the lockout interval from the last
 * one, whatever the credentials (the right password included). WildFly's brute-force mitigation
 * does the same per user; this stops one address from trying many users. A Caffeine cache holds the
 * counts: it expires each with its interval and keeps at most {@link #MAX_ADDRESSES}, so a flood of
 * addresses costs bounded memory (the least recently seen are dropped first).
 */
public final class FailedLogins {

  /** How many addresses are tracked at most. */
  static final int MAX_ADDRESSES = 100_000;

  private record Tally(int failures, boolean blocked) {}

  private final int maxFailures;
  private final Duration lockout;
  private final Cache<String, Tally> tallies;

  public FailedLogins(int maxFailures, Duration lockout) {
    this(maxFailures, lockout, Ticker.systemTicker());
  }

  FailedLogins(int maxFailures, Duration lockout, Ticker ticker) {
    if (maxFailures < 1) {
      throw new IllegalArgumentException("maxFailures must be at least 1, was " + maxFailures);
    }
    if (lockout.isNegative() || lockout.isZero()) {
      throw new IllegalArgumentException("lockout must be positive, was " + lockout);
    }
    this.maxFailures = maxFailures;
    this.lockout = lockout;
    long lockoutNanos = lockout.toNanos();
    this.tallies =
        Caffeine.newBuilder()
            .maximumSize(MAX_ADDRESSES)
            .ticker(ticker)
            .expireAfter(
                new Expiry<String, Tally>() {
                  @Override
                  public long expireAfterCreate(String address, Tally tally, long now) {
                    return lockoutNanos;
                  }

                  @Override
                  public long expireAfterUpdate(
                      String address, Tally tally, long now, long remaining) {
                    // the interval runs from the first failure; the lockout from the blocking one
                    return tally.blocked() ? lockoutNanos : remaining;
                  }

                  @Override
                  public long expireAfterRead(
                      String address, Tally tally, long now, long remaining) {
                    return remaining;
                  }
                })
            .build();
  }

  /**
   * The key an address is counted under: the address itself, but an IPv6 address's /64 network,
   * since one host or customer usually holds a whole /64 and could otherwise guess from a new
   * address each time. A text that is no IP address (an unresolved forwarded name) counts as is.
   */
  public static String keyOf(String address) {
    if (address == null || address.indexOf(':') < 0) {
      return address;
    }
    try {
      byte[] bytes = InetAddress.getByName(address).getAddress();
      if (bytes.length != 16) {
        return address;
      }
      Arrays.fill(bytes, 8, 16, (byte) 0);
      return InetAddress.getByAddress(bytes).getHostAddress() + "/64";
    } catch (UnknownHostException e) {
      return address;
    }
  }

  /** Whether {@code address} is refused now. */
  public boolean isBlocked(String address) {
    Tally tally = tallies.getIfPresent(Objects.requireNonNull(address, "address"));
    return tally != null && tally.blocked();
  }

  /**
   * Counts a failed login from {@code address}.
   *
   * @return whether this failure blocked it
   */
  public boolean failed(String address) {
    boolean[] blockedNow = {false};
    tallies
        .asMap()
        .compute(
            Objects.requireNonNull(address, "address"),
            (key, old) -> {
              if (old != null && old.blocked()) {
                return old;
              }
              int failures = old == null ? 1 : old.failures() + 1;
              blockedNow[0] = failures >= maxFailures;
              return new Tally(failures, blockedNow[0]);
            });
    return blockedNow[0];
  }

  public int maxFailures() {
    return maxFailures;
  }

  public Duration lockout() {
    return lockout;
  }

  /** How long a blocked address waits at most, for {@code Retry-After}. */
  Optional<Duration> retryAfter(String address) {
    if (!isBlocked(address)) {
      return Optional.empty();
    }
    return tallies
        .policy()
        .expireVariably()
        .flatMap(expiry -> expiry.getExpiresAfter(address))
        .or(() -> Optional.of(lockout));
  }
}
