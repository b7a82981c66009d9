package io.belfry.web.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The same verdict as {@code /belfry/api/v1/health}, as a MicroProfile Health readiness check:
 * {@code http://<management address>:9990/health/ready} reports {@code belfry} with its details.
 */
@Readiness
@ApplicationScoped
public class BelfryReadiness implements HealthCheck {

  @Inject NodeHealth node;

  @Override
  public HealthCheckResponse call() {
    HealthReport report = node.report();
    return HealthCheckResponse.named("belfry")
        .status(report.up())
        .withData("node", report.node())
        .withData("members", String.join(",", report.members()))
        .withData("cacheMode", report.cache().mode())
        .withData("persistent", report.cache().persistent())
        .withData("datasource", report.datasource().up())
        .build();
  }
}
