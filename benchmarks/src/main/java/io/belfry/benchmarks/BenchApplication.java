package io.belfry.benchmarks;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The bench WAR's JAX-RS application: {@link BenchEndpoint} under {@code /bench}. */
@ApplicationPath("/")
public class BenchApplication extends Application {}
