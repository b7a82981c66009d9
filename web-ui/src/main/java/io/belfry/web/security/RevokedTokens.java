package io.belfry.web.security;

import io.belfry.realm.TokenRevocations;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import org.infinispan.Cache;
import org.infinispan.commons.CacheException;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.infinispan.notifications.cachemanagerlistener.annotation.Merged;
import org.infinispan.notifications.cachemanagerlistener.annotation.ViewChanged;
import org.infinispan.notifications.cachemanagerlistener.event.ViewChangedEvent;
import org.jboss.logging.Logger;

/**
 * Carries API-token revocations to every member, so that the realm ({@code io.belfry.realm}) may
 * remember the tokens it found and still refuse a revoked one on its next request, on any node.
 *
 * <p>{@link #announce} writes the token's hash to the replicated {@code revoked-tokens} cache
 * (configure-cache.cli); a replicated write returns once every member has applied it, and each
 * member's {@link Announcements} listener, which Infinispan runs synchronously as the write is
 * applied, has then told its realm to forget the token. A member that joins, leaves or merges makes
 * every member forget every token, since it may have missed announcements. Until this bean has
 * started on a node, that node's realm remembers no token at all.
 */
@ApplicationScoped
public class RevokedTokens {

  private static final Logger LOG = Logger.getLogger(RevokedTokens.class);

  /** JNDI name of the cache that carries the announcements (cache container {@code belfry}). */
  static final String CACHE = "java:jboss/infinispan/cache/belfry/revoked-tokens";

  @Resource(lookup = CACHE)
  Cache<String, String> announcements;

  private final Announcements listener = new Announcements();

  void start(@Observes @Initialized(ApplicationScoped.class) Object deployed) {
    announcements.addListener(listener);
    announcements.getCacheManager().addListener(listener);
    TokenRevocations.listening(true);
  }

  @PreDestroy
  void stop() {
    TokenRevocations.listening(false);
    announcements.getCacheManager().removeListener(listener);
    announcements.removeListener(listener);
  }

  /**
   * Tells every member that the token whose SHA-256 is {@code tokenHash} is revoked; returns once
   * each has forgotten it. Call after the token's row is deleted.
   */
  public void announce(String tokenHash) {
    try {
      announcements.put(tokenHash, Instant.now().toString());
    } catch (CacheException e) {
      // the row is gone: members that remembered the token refuse it when they next see the
      // members change (a partition merging) or within the realm's token-cache-ttl
      TokenRevocations.membersChanged();
      LOG.warnf(
          "BELFRY-0616 A revoked API token could not be announced to every member (%s): members"
              + " that missed it refuse it within belfry.token-cache-ttl",
          e.getMessage());
    }
  }

  /** Infinispan wants a public listener class; the CDI bean's own proxy would not do. */
  @Listener
  public static final class Announcements {

    @CacheEntryCreated
    @CacheEntryModified
    public void revoked(CacheEntryEvent<String, String> event) {
      if (!event.isPre()) {
        TokenRevocations.revoked(event.getKey());
      }
    }

    @ViewChanged
    @Merged
    public void membersChanged(ViewChangedEvent event) {
      TokenRevocations.membersChanged();
    }
  }
}
