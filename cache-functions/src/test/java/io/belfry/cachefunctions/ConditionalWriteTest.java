package io.belfry.cachefunctions;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cachefunctions.ConditionalWrites.Outcome;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.functional.impl.FunctionalMapImpl;
import org.infinispan.functional.impl.ReadWriteMapImpl;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.protostream.ProtobufUtil;
import org.infinispan.protostream.SerializationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link ConditionalWrite} run by a real (local) Infinispan cache's {@code evalMany}. */
class ConditionalWriteTest {

  /** Values as the engine writes them: any char up to U+00FF, colons and digits included. */
  private static final String OLD = "3:ab\u0000c:12\u00ff";

  private static final String NEW = "7:\u0000\u0000:x";

  private DefaultCacheManager manager;
  private Cache<String, String> cache;

  @BeforeEach
  void start() {
    manager = new DefaultCacheManager();
    manager.defineConfiguration("c", new ConfigurationBuilder().build());
    cache = manager.getCache("c");
  }

  @AfterEach
  void stop() {
    manager.stop();
  }

  private Map<String, Outcome> run(Map<String, String> arguments) {
    Map<String, Outcome> outcomes = new HashMap<>();
    ReadWriteMapImpl.create(FunctionalMapImpl.create(cache.getAdvancedCache()))
        .evalMany(arguments, ConditionalWrite.INSTANCE)
        .forEach(
            result -> {
              Outcome outcome = Outcome.of(result);
              outcomes.put(outcome.key(), outcome);
            });
    return outcomes;
  }

  @Test
  void eachKeyWinsOrLosesOnItsOwn() {
    cache.put("replaced", OLD);
    cache.put("moved-on", "someone else's");
    cache.put("taken", OLD);
    cache.put("mine-already", NEW);
    Map<String, String> arguments = new LinkedHashMap<>();
    arguments.put("replaced", ConditionalWrites.replacing(OLD, NEW));
    arguments.put("moved-on", ConditionalWrites.replacing(OLD, NEW));
    arguments.put("gone", ConditionalWrites.replacing(OLD, NEW));
    arguments.put("new:key:3", ConditionalWrites.ifAbsent(NEW));
    arguments.put("taken", ConditionalWrites.ifAbsent(NEW));
    arguments.put("mine-already", ConditionalWrites.replacing(OLD, NEW));

    Map<String, Outcome> outcomes = run(arguments);

    assertThat(outcomes).hasSize(6);
    assertThat(outcomes.get("replaced")).isEqualTo(new Outcome("replaced", true, null));
    assertThat(outcomes.get("moved-on"))
        .isEqualTo(new Outcome("moved-on", false, "someone else's"));
    assertThat(outcomes.get("gone")).isEqualTo(new Outcome("gone", false, null));
    assertThat(outcomes.get("new:key:3")).isEqualTo(new Outcome("new:key:3", true, null));
    assertThat(outcomes.get("taken")).isEqualTo(new Outcome("taken", false, OLD));
    // a retried command finds its own first write: won, not lost to another writer
    assertThat(outcomes.get("mine-already")).isEqualTo(new Outcome("mine-already", true, null));

    assertThat(cache.get("replaced")).isEqualTo(NEW);
    assertThat(cache.get("moved-on")).isEqualTo("someone else's");
    assertThat(cache.get("gone")).isNull();
    assertThat(cache.get("new:key:3")).isEqualTo(NEW);
    assertThat(cache.get("taken")).isEqualTo(OLD);
  }

  @Test
  void aValueThatOnlyStartsWithTheExpectedOneIsNotIt() {
    cache.put("k", OLD + "more");
    Map<String, Outcome> outcomes = run(Map.of("k", ConditionalWrites.replacing(OLD, NEW)));
    assertThat(outcomes.get("k").won()).isFalse();
    assertThat(cache.get("k")).isEqualTo(OLD + "more");
  }

  @Test
  void theFunctionTravelsAsAProtoStreamMessage() throws Exception {
    SerializationContext context = ProtobufUtil.newSerializationContext();
    new CacheFunctionsSchema().register(context);
    byte[] bytes = ProtobufUtil.toWrappedByteArray(context, ConditionalWrite.INSTANCE);
    Object read = ProtobufUtil.fromWrappedByteArray(context, bytes);
    assertThat(read).isSameAs(ConditionalWrite.INSTANCE);
  }
}
