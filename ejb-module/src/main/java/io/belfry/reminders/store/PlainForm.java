package io.belfry.reminders.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * (docs/performance.md, "Where a write's CPU goes on WildFly"). {@link #of} asks for the cache's
 * own storage type on both sides instead, so entries are stored, replicated and persisted as the
 * Strings they are, whichever deployment writes them.
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
   * @param deploymentView the cache as the server gave it to the deployment: its data conversion
   *     reads the wrapped form
   * @param plain the same cache from {@link #of}
   * @return how many wrapped entries were folded
   */
  public static int migrate(
      Cache<String, String> deploymentView, AdvancedCache<String, String> plain) {
    DataConversion keys = deploymentView.getAdvancedCache().getKeyDataConversion();
    DataConversion values = deploymentView.getAdvancedCache().getValueDataConversion();
    AdvancedCache<Object, Object> local = localRaw(plain);
    List<Map.Entry<Object, Object>> wrapped = wrappedEntries(local);
    int folded = 0;
    for (Map.Entry<Object, Object> entry : wrapped) {
      Object key = keys.fromStorage(entry.getKey());
      Object value = values.fromStorage(entry.getValue());
      if (!(key instanceof String cacheKey) || !(value instanceof String encoded)) {
        LOG.warnf(
            "BELFRY-0031 Left %s in cache %s as it is: not a reminder in an earlier build's form",
            entry.getKey().getClass().getName(), plain.getName());
        continue;
      }
      fold(plain, cacheKey, encoded);
      local.remove(entry.getKey());
      folded++;
    }
    if (folded > 0) {
      LOG.infof(
          "BELFRY-0030 Moved %d entries of cache %s on this node from WildFly's per-deployment form"
              + " to plain Strings",
          folded, plain.getName());
    }
    return folded;
  }

  /**
   * Fails when {@code engines} (the plain view of the roster cache) holds an entry in the wrapped
   * form: an engine of an earlier build is running on a member, and it would write reminders this
   * build cannot see. The cluster is upgraded by stopping every member, then starting them on the
   * new build.
   */
  public static void refuseEarlierEngines(AdvancedCache<String, String> engines) {
    long earlier = 0;
    try (CloseableIterator<Object> keys = localRaw(engines).keySet().iterator()) {
      while (keys.hasNext()) {
        if (!(keys.next() instanceof String)) {
          earlier++;
        }
      }
    }
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

  /** Writes {@code encoded} under {@code cacheKey} unless what the key holds beats it. */
  private static void fold(AdvancedCache<String, String> plain, String cacheKey, String encoded) {
    while (true) {
      String held = plain.putIfAbsent(cacheKey, encoded);
      if (held == null || !VersionMerge.beats(cacheKey, encoded, held)) {
        return;
      }
      if (plain.replace(cacheKey, held, encoded)) {
        return;
      }
    }
  }

  private static List<Map.Entry<Object, Object>> wrappedEntries(
      AdvancedCache<Object, Object> local) {
    // an iterator, not a stream: a cache stream's lambdas would have to be marshallable
    List<Map.Entry<Object, Object>> wrapped = new ArrayList<>();
    try (CloseableIterator<Map.Entry<Object, Object>> entries = local.entrySet().iterator()) {
      while (entries.hasNext()) {
        Map.Entry<Object, Object> entry = entries.next();
        if (!(entry.getKey() instanceof String)) {
          wrapped.add(Map.entry(entry.getKey(), entry.getValue()));
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
