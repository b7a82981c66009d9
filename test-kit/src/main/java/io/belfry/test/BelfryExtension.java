package io.belfry.test;

import java.util.Objects;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts a fresh {@link VirtualBelfry} for each test and closes it after: an empty cache, virtual
 * time at its start, no observers. Test methods and {@code @BeforeEach} methods get it as a
 * parameter.
 *
 * <pre>{@code
 * @ExtendWith(BelfryExtension.class)
 * class MyTest {
 *   @Test
 *   void fires(VirtualBelfry belfry) { ... }
 * }
 * }</pre>
 *
 * To start it otherwise (another instant, a retry policy), register one built from a {@link
 * VirtualBelfry.Builder}:
 *
 * <pre>{@code
 * @RegisterExtension
 * static BelfryExtension belfry =
 *     new BelfryExtension(VirtualBelfry.builder().startingAt(Instant.parse("2026-03-29T00:00:00Z")));
 * }</pre>
 */
public final class BelfryExtension implements BeforeEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(BelfryExtension.class);

  private final VirtualBelfry.Builder builder;

  /** With the defaults of {@link VirtualBelfry#builder()}. */
  public BelfryExtension() {
    this(VirtualBelfry.builder());
  }

  public BelfryExtension(VirtualBelfry.Builder builder) {
    this.builder = Objects.requireNonNull(builder, "builder");
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    current(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == VirtualBelfry.class
        && context.getTestMethod().isPresent();
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return current(context);
  }

  /** The test's instance, closed by JUnit when the test's context closes. */
  private VirtualBelfry current(ExtensionContext context) {
    return context
        .getStore(STORE)
        .getOrComputeIfAbsent(Started.class, k -> new Started(builder.start()), Started.class)
        .belfry();
  }

  private record Started(VirtualBelfry belfry) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      belfry.close();
    }
  }
}
