package io.belfry.benchmarks;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The load driver of the bench WAR ({@link WildFlyBench}), inside the WildFly server: runs the
 * harness's {@link Workloads} against the injected {@link Reminders} bean on a managed thread, and
 * counts every fire of namespace {@value #NAMESPACE} in {@link Fires} from a CDI observer. The
 * harness only starts a run ({@code POST /bench/workloads}, its arguments one a line) and fetches
 * its figures ({@code GET}); no reminder travels over HTTP. In a cluster ({@link WildFlyCluster})
 * node 1 runs the workloads and collects the other nodes' fires ({@link FireRelay}).
 */
@Path("workloads")
@ApplicationScoped
@ServesNamespaces(BenchEndpoint.NAMESPACE)
public class BenchEndpoint {

  static final String NAMESPACE = "bench";

  @Inject Reminders reminders;

  @Resource ManagedExecutorService executor;

  @Resource ManagedThreadFactory threads;

  private CompletableFuture<String> run;
  private FireRelay.Collector collector;
  private volatile FireRelay.Forwarder forwarder;

  void onFire(@Observes @Namespace(NAMESPACE) ReminderFired fired) {
    FireRelay.Forwarder to = forwarder;
    if (to == null) {
      Fires.fired(fired.getKey());
    } else {
      to.fired(fired.getKey(), Fires.nowMicros());
    }
  }

  /** On node 1 of a cluster: listens for the other nodes' fires; answers the port. */
  @POST
  @Path("collector")
  @Produces(MediaType.TEXT_PLAIN)
  public synchronized String collect() throws IOException {
    if (collector == null) {
      collector = new FireRelay.Collector(threads);
    }
    return Integer.toString(collector.port());
  }

  /** On the other nodes of a cluster: sends this node's fires to node 1's collector. */
  @POST
  @Path("forwarder")
  public synchronized Response forward(@QueryParam("port") int port) throws IOException {
    if (forwarder == null) {
      forwarder = new FireRelay.Forwarder(port, threads);
    }
    return Response.noContent().build();
  }

  @PreDestroy
  synchronized void close() {
    if (collector != null) {
      collector.close();
    }
    if (forwarder != null) {
      forwarder.close();
    }
  }

  /** Starts the workloads; 409 while a run is under way. */
  @POST
  @Consumes(MediaType.TEXT_PLAIN)
  public synchronized Response start(String arguments, @QueryParam("group") String group) {
    if (run != null && !run.isDone()) {
      return Response.status(Response.Status.CONFLICT).build();
    }
    Options o = Options.parse(arguments.lines().filter(l -> !l.isBlank()).toArray(String[]::new));
    run =
        CompletableFuture.supplyAsync(
            () -> {
              Results results = new Results();
              try {
                new Workloads(o, results)
                    .run(fresh -> new ServerContender(reminders), Results.WILDFLY, group);
              } catch (Exception e) {
                throw new CompletionException(e);
              }
              return results.export();
            },
            executor);
    return Response.accepted().build();
  }

  /** 200 with the exported figures when done, 202 while running, 500 with the failure. */
  @GET
  @Produces(MediaType.TEXT_PLAIN)
  public synchronized Response result() {
    if (run == null) {
      return Response.status(Response.Status.NOT_FOUND).build();
    }
    if (!run.isDone()) {
      return Response.accepted().build();
    }
    try {
      return Response.ok(run.join()).build();
    } catch (CompletionException e) {
      StringWriter trace = new StringWriter();
      e.getCause().printStackTrace(new PrintWriter(trace));
      return Response.serverError().entity(trace.toString()).build();
    }
  }
}
