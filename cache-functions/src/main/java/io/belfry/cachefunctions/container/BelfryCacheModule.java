package io.belfry.cachefunctions.container;

import java.util.Collection;
import java.util.List;
import org.infinispan.container.impl.InternalDataContainer;
import org.infinispan.factories.DataContainerFactory;
import org.infinispan.factories.impl.ComponentAccessor;
import org.infinispan.factories.impl.ModuleMetadataBuilder;
import org.infinispan.lifecycle.ModuleLifecycle;

/**
 * Belfry's Infinispan module: makes {@link InfinispanDataContainerFactory} the factory of every
 * cache's data container in a cache manager whose class loader sees this module (on WildFly, the
 * {@code belfry} cache container, which names the server module {@code io.belfry.cache-functions};
 * in one JVM, wherever this jar is on the class path). Found through the ServiceLoader like
 * WildFly's own module ({@code WildFlyClustering}), which registers its factory for the same
 * component: this module depends on it where it is present, so it is registered after it, and the
 * last factory registered for a component is the one Infinispan uses.
 */
public final class BelfryCacheModule implements ModuleMetadataBuilder {

  static final String NAME = "belfry-cache-functions";

  /**
   * The ordinal of Infinispan's {@code Scopes.NAMED_CACHE} (one instance per cache), as the
   * accessors Infinispan generates pass it; the enum is in a jar the server module does not see.
   */
  private static final int NAMED_CACHE_SCOPE = 1;

  @Override
  public String getModuleName() {
    return NAME;
  }

  @Override
  public Collection<String> getRequiredDependencies() {
    return List.of("core");
  }

  @Override
  public Collection<String> getOptionalDependencies() {
    // WildFly's module, when there: registered first, so that the factory below replaces its one
    return List.of("WildFlyClustering");
  }

  @Override
  public ModuleLifecycle newModuleLifecycle() {
    return new ModuleLifecycle() {};
  }

  @Override
  public void registerMetadata(ModuleBuilder builder) {
    String factory = InfinispanDataContainerFactory.class.getName();
    builder.registerComponentAccessor(
        factory,
        List.of(InternalDataContainer.class.getName()),
        // wired as Infinispan's own factory is (its accessor is the super accessor)
        new ComponentAccessor<InfinispanDataContainerFactory>(
            factory,
            NAMED_CACHE_SCOPE,
            true, // survives a cache restart, as Infinispan's and WildFly's factories do
            DataContainerFactory.class.getName(),
            List.of()) {
          @Override
          protected InfinispanDataContainerFactory newInstance() {
            return new InfinispanDataContainerFactory();
          }
        });
  }
}
