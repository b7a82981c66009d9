package io.belfry.reminders.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.commons.dataconversion.MediaType;
import org.infinispan.commons.util.CloseableIterator;
import org.infinispan.context.Flag;
import org.infinispan.encoding.DataConversion;
import org.jboss.logging.Logger;

/**
 * Belfry's caches as plain Strings, and the one-time move of what earlier builds stored in
 * WildFly's per-deployment form.
 *
 * <p>WildFly hands a deployment that looks up a clustered cache a view with media types of its own
 * ({@code application/deployment.NAME.war}): every key and value is stored as a {@code
 * ByteBufferMarshalledKey}/{@code Value} that the deployment's marshaller fills, inside the
 * container's marshaller. Belfry writes only Strings, which the container's marshaller carries by
 * itself, so that wrapping is pure cost: 29 % of a node's CPU during a three-node burst of sets
 * (docs/performance/comparison.md, "Where a write's CPU goes on WildFly"). {@link #of} asks for the
 * cache's own storage type on both sides instead, so entries are stored, replicated and persisted
 * as the Strings they are, whichever deployment writes them.
 *
 * <p>The two forms are different keys to the cache, and a deployment's listeners cannot read the
 * other form. So {@link #migrate} folds each wrapped entry this node holds into its plain key
 * (higher version wins, as everywhere) and drops the wrapped copy from this node, before the engine
 * reads the cache; and {@link #refuseEarlierEngines} stops a deployment from joining a cluster
 * where an engine of an earlier build still writes the wrapped form. See docs/operations.md,
 * "Upgrading".
 */
public final class PlainForm {

  private static final Logger LOG = Logger.getLogger(PlainForm.class);

  /** Wrapped entries moved per round: their plain writes are in flight together. */
  static final int CHUNK = 512;

  /** The name of {@link #movedMarker}'s file. */
  static final String MOVED_MARKER = "belfry-plain-form";

  private PlainForm() {}

  /**
   * {@code cache} as the cache stores it: plain Strings on both sides, whatever media types the
   * server gave the deployment's view.
   */
  public static AdvancedCache<String, String> of(Cache<String, String> cache) {
    return cache
        .getAdvancedCache()
        .withMediaType(MediaType.APPLICATION_OBJECT, MediaType.APPLICATION_OBJECT);
  }

  /**
   * Moves every entry this node holds in the deployment's wrapped form into its plain key, and
   * removes the wrapped copy from this node only (each node folds its own copies, so a copy that
   * differs on another node is folded there, not lost here). A plain key already present keeps its
   * value unless the wrapped one {@linkplain VersionMerge#beats beats} it. Entries that do not
   * decode to Strings are not Belfry's and are left alone.
   *
   * <p>Once a start of this build has looked, this node's store holds no wrapped entry (this build
   * never writes one, and refuses to join a cluster where an earlier build still runs), so the look
   * is made once per file store: a marker beside the store ({@link #movedMarker}) says it was, and
   * later starts skip it. Where memory is bounded the look reads every key of the store: 22 s of a
   * joining node's start at a million reminders, and more at each further million
   * (docs/performance/cluster.md, "Every start read every key").
   *
   * @param deploymentView the cache as the server gave it to the deployment: its data conversion
   *     reads the wrapped form
   * @param plain the same cache from {@link #of}
   * @return how many wrapped entries were folded
   */
  public static int migrate(
      Cache<String, String> deploymentView, AdvancedCache<String, String> plain) {
    return onceForTheStore(plain, () -> fold(deploymentView, plain));
  }

  /**
   * Runs {@code look} unless {@code cache}'s {@link #movedMarker} is there, and leaves the marker
   * once it has run; returns what it returned, 0 when skipped.
   */
  static int onceForTheStore(Cache<?, ?> cache, IntSupplier look) {
    Optional<Path> marker = movedMarker(cache);
    if (marker.isPresent() && Files.exists(marker.get())) {
      LOG.debugf("BELFRY-0034 %s says this store was moved to plain Strings", marker.get());
      return 0;
    }
    int folded = look.getAsInt();
    marker.ifPresent(PlainForm::mark);
    return folded;
  }

  private static int fold(
      Cache<String, String> deploymentView, AdvancedCache<String, String> plain) {
    DataConversion keys = deploymentView.getAdvancedCache().getKeyDataConversion();
    DataConversion values = deploymentView.getAdvancedCache().getValueDataConversion();
    AdvancedCache<Object, Object> local = localRaw(plain);
    List<Object> wrapped = wrappedKeys(local);
    if (wrapped.isEmpty()) {
      return 0;
    }
    long startNanos = System.nanoTime();
    int folded = 0;
    for (int from = 0; from < wrapped.size(); from += CHUNK) {
      List<Object> chunk = wrapped.subList(from, Math.min(wrapped.size(), from + CHUNK));
      Map<String, String> decoded = new LinkedHashMap<>();
      List<Object> foldedKeys = new ArrayList<>();
      for (Map.Entry<Object, Object> entry : local.getAll(new LinkedHashSet<>(chunk)).entrySet()) {
        Object key = keys.fromStorage(entry.getKey());
        Object value = values.fromStorage(entry.getValue());
        if (key instanceof String cacheKey && value instanceof String encoded) {
          decoded.put(cacheKey, encoded);
          foldedKeys.add(entry.getKey());
        } else {
          LOG.warnf(
              "BELFRY-0031 Left %s in cache %s as it is: not a reminder in an earlier build's form",
              entry.getKey().getClass().getName(), plain.getName());
        }
      }
      foldAll(plain, decoded);
      join(foldedKeys.stream().map(local::removeAsync).toList());
      folded += foldedKeys.size();
    }
    LOG.infof(
        "BELFRY-0030 Moved %d entries of cache %s on this node from WildFly's per-deployment form"
            + " to plain Strings in %d ms",
        folded, plain.getName(), (System.nanoTime() - startNanos) / 1_000_000);
    return folded;
  }

  /**
   * The file that says this node's file store holds no entry in the wrapped form, beside the store
   * ({@link StoreFiles}): a store deleted, or replaced by a backup of an earlier build, takes it
   * along and is looked at again. Empty for a cache whose entries are not all in one Soft-Index
   * file store (memory alone is cheap to look at).
   */
  static Optional<Path> movedMarker(Cache<?, ?> cache) {
    return StoreFiles.beside(cache, MOVED_MARKER);
  }

  private static void mark(Path marker) {
    try {
      Files.createDirectories(marker.getParent());
      Files.writeString(
          marker,
          "Belfry: this file store holds no entry in WildFly's per-deployment form (moved to plain"
              + " Strings). Deleted with the store.\n");
    } catch (IOException e) {
      // the next start looks again: slower, never wrong
      LOG.warnf(e, "BELFRY-0033 Could not write %s; the next start reads the store again", marker);
    }
  }

  /**
   * Fails when {@code engines} (the plain view of the roster cache) holds an entry in the wrapped
   * form: an engine of an earlier build is running on a member, and it would write reminders this
   * build cannot see. The cluster is upgraded by stopping every member, then starting them on the
   * new build.
   */
  public static void refuseEarlierEngines(AdvancedCache<String, String> engines) {
    int earlier = wrappedKeys(localRaw(engines)).size();
    if (earlier > 0) {
      throw new IllegalStateException(
          "BELFRY-0032 "
              + earlier
              + " engine(s) of an earlier Belfry build run on this cluster (they store WildFly's"
              + " per-deployment form, this build stores plain Strings, and neither reads the"
              + " other's). Stop every member, then start them all on this build; see"
              + " docs/operations.md, \"Upgrading\"");
    }
  }

  /**
   * Writes each value under its key unless what the key holds beats it. A key this node already
   * holds in plain form, at least as new, needs no write: a node that joins a cluster already moved
   * has received the plain entries, and only drops its old copies. The others' writes are in flight
   * together (one replicated round trip each, not one after another), and the rare key that holds
   * an older value is then replaced one by one.
   */
  private static void foldAll(AdvancedCache<String, String> plain, Map<String, String> decoded) {
    AdvancedCache<String, String> local = plain.withFlags(Flag.CACHE_MODE_LOCAL);
    Map<String, CompletableFuture<String>> held = new LinkedHashMap<>();
    decoded.forEach(
        (key, value) -> {
          String here = local.get(key);
          if (here == null || VersionMerge.beats(key, value, here)) {
            held.put(key, plain.putIfAbsentAsync(key, value));
          }
        });
    join(List.copyOf(held.values()));
    held.forEach((key, previous) -> fold(plain, key, decoded.get(key), previous.join()));
  }

  /** Replaces {@code held} with {@code encoded} while {@code encoded} beats what the key holds. */
  private static void fold(
      AdvancedCache<String, String> plain, String cacheKey, String encoded, String held) {
    while (held != null && VersionMerge.beats(cacheKey, encoded, held)) {
      if (plain.replace(cacheKey, held, encoded)) {
        return;
      }
      held = plain.putIfAbsent(cacheKey, encoded);
    }
  }

  private static void join(List<? extends CompletableFuture<?>> writes) {
    CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
  }

  /**
   * This node's keys in the wrapped form (an iterator, not a stream: a cache stream's lambdas would
   * have to be marshallable). Keys only, so that a node holding millions does not hold their values
   * twice while it moves them.
   *
   * <p>Where memory holds every entry of the file store (preloaded at the cache's start, nothing
   * evicted: the default, see {@link InfinispanReminderStore#holdsEveryEntry}), memory alone is
   * read. Reading the store's keys as well found nothing more and cost every start seconds per
   * million entries (docs/performance/cluster.md, "A graceful restart … plain form"). Where memory
   * is bounded, some entries are on disk only, and the store is read too.
   */
  static List<Object> wrappedKeys(AdvancedCache<Object, Object> local) {
    AdvancedCache<Object, Object> source =
        InfinispanReminderStore.holdsEveryEntry(local)
            ? local.withFlags(Flag.SKIP_CACHE_LOAD)
            : local;
    List<Object> wrapped = new ArrayList<>();
    try (CloseableIterator<Object> keys = source.keySet().iterator()) {
      while (keys.hasNext()) {
        Object key = keys.next();
        if (!(key instanceof String)) {
          wrapped.add(key);
        }
      }
    }
    return wrapped;
  }

  // The plain view's keys are typed String, but a wrapped entry's key is not: read it as Object.
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static AdvancedCache<Object, Object> localRaw(AdvancedCache<String, String> plain) {
    return ((AdvancedCache) plain).withFlags(Flag.CACHE_MODE_LOCAL);
  }
}
