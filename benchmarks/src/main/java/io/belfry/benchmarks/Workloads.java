package io.belfry.benchmarks;

import io.belfry.benchmarks.Results.Better;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.HdrHistogram.Histogram;

/**
 * The workloads of issue 8, each run the same way against every system: (a) one-shot tasks
 * scheduled at a fixed rate, each due a lead time after it is sent, then the highest rate the
 * system sustains; (b) a burst all due at one instant; (c) set-then-cancel churn. (d), the cold
 * restart, is {@link ColdRestart}. Figures go to {@link Results}.
 */
final class Workloads {

  private static final Logger LOG = Logger.getLogger(Workloads.class.getName());

  /** A rate passes when its p99 lateness is at most this, with no miss and no duplicate. */
  static final double P99_GOAL_MILLIS = 100;

  /** ... and the clients sent at least this share of the rate (the system acknowledged in time). */
  static final double SEND_SHARE = 0.95;

  /** Tasks of the calibration are due this far ahead, so none fires during the run. */
  private static final long FAR_MILLIS = 24L * 3600 * 1000;

  private static final int CAPACITY = Clients.CAPACITY;

  private static final int WARM_UP_SECONDS = 2;
  private static final int WARM_UP_FIRES = 300;

  /** Rates tried after the listed ones, at most, in the search for the highest sustained. */
  private static final int SEARCH_STEPS = 3;

  private final Options o;
  private final Results results;
  private int seq;
  private ColdRestart.Opener opener;
  private Contender c;

  Workloads(Options options, Results results) {
    this.o = options;
    this.results = results;
  }

  /** Calibration, (a), (b), (c) against one started system. */
  void run(ColdRestart.Opener opener, String system, String group) throws Exception {
    this.opener = opener;
    c = opener.open(true);
    try {
      warmUp(system, group);
      double ackRate = calibrate(system, group);
      fixedRates(system, group);
      burst(system, group, ackRate);
      churn(system, group);
    } finally {
      c.close();
    }
  }

  /**
   * When acknowledged tasks of a measurement had not run by its deadline, the system would fire
   * that backlog (in due order, before anything newer) during the next measurement and spoil it:
   * such a system is closed and started again on fresh state, and the report says so.
   */
  private void settle(Fires.Run run, int acked, String system, String group, String what) {
    int outstanding = acked - run.fired.get() + run.duplicates();
    if (outstanding <= 0) {
      return;
    }
    results.note(
        "%s, %s, %s: %,d of %,d acknowledged tasks had not run by the deadline; the system was"
            + " restarted on fresh state before the next measurement.",
        system, group, what, outstanding, acked);
    c.close();
    try {
      c = opener.open(true);
    } catch (Exception e) {
      throw new IllegalStateException("could not restart " + system, e);
    }
  }

  // --- Warm-up ---------------------------------------------------------------------------------

  /**
   * Not reported: two seconds of set-then-cancel and a few hundred fires, so that the JIT has seen
   * this system's schedule, cancel and fire paths before anything is measured (the systems run one
   * after another in one JVM; without it the first would pay for the harness's warm-up too).
   */
  private void warmUp(String system, String group) {
    String prefix = "w" + (++seq);
    int fires = WARM_UP_FIRES;
    long[] due = new long[CAPACITY];
    Fires.Run run = Fires.begin(prefix, due);
    long dueAt = System.currentTimeMillis() + o.leadMillis() + 1_000;
    Clients.Outcome out =
        Clients.forSeconds(
            o.clients(),
            WARM_UP_SECONDS,
            (t, i) -> {
              due[i] = dueAt;
              c.schedule(t, run.id(i), dueAt);
              if (i >= fires) {
                c.cancel(t, run.id(i));
              }
            });
    run.await(fires, dueAt + o.drainMillis());
    settle(run, Math.min(fires, out.acked()), system, group, "warm-up");
  }

  // --- Acknowledged schedules/s ---------------------------------------------------------------

  private double calibrate(String system, String group) {
    String prefix = "c" + (++seq);
    long due = System.currentTimeMillis() + FAR_MILLIS;
    Usage usage = Usage.start();
    Clients.Outcome out =
        Clients.forSeconds(
            o.clients(), o.calibrateSeconds(), (t, i) -> c.schedule(t, Fires.id(prefix, i), due));
    Usage.Used used = usage.stop();
    String f = "acknowledged schedules/s (" + o.clients() + " clients, closed loop)";
    results.put(group, system, f, Better.HIGHER, "%,.0f", out.perSecond());
    results.put(
        group,
        system,
        "schedule latency p99 ms (same)",
        Better.LOWER,
        "%.2f",
        out.latencyMicros().getValueAtPercentile(99) / 1_000.0);
    usage(group, system, "schedules", used);
    log(
        "%s %s: %,.0f schedules/s acknowledged, %d failed %s",
        system, group, out.perSecond(), out.failed(), err(out));
    return out.perSecond();
  }

  // --- (a) Fixed rate ---------------------------------------------------------------------------

  /** One step of (a): what it measured, and whether the rate was sustained. */
  record Step(
      int rate, boolean passed, double p99Millis, int misses, int duplicates, double sendShare) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%,d/s: %s (p99 %.1f ms, misses %d, duplicates %d, sent %.0f %%)",
          rate,
          passed ? "sustained" : "not sustained",
          p99Millis,
          misses,
          duplicates,
          sendShare * 100);
    }
  }

  private void fixedRates(String system, String group) {
    TreeMap<Integer, Step> steps = new TreeMap<>();
    for (int rate : o.rates()) {
      steps.put(rate, fixedRate(system, group, rate, true));
    }
    // The highest sustained rate: double past the listed rates while they pass, or halve below
    // them while they fail, then halve the gap between the best pass and the first failure; at
    // most SEARCH_STEPS more steps, so the figure is a bracket, not a precise maximum.
    int extra = 0;
    while (extra < SEARCH_STEPS) {
      Integer best =
          steps.entrySet().stream()
              .filter(e -> e.getValue().passed())
              .map(e -> e.getKey())
              .max(Integer::compare)
              .orElse(0);
      Integer fail =
          steps.keySet().stream()
              .filter(r -> r > best && !steps.get(r).passed())
              .min(Integer::compare)
              .orElse(null);
      int next;
      if (fail == null) {
        next = best * 2;
        if (next > o.maxRate()) {
          break;
        }
      } else if (best == 0) {
        next = fail / 2;
        if (next < 250) {
          break;
        }
      } else {
        if (fail - best <= Math.max(250, best / 4)) {
          break;
        }
        next = (best + fail) / 2 / 250 * 250;
      }
      steps.put(next, fixedRate(system, group, next, false));
      extra++;
    }
    int best = steps.values().stream().filter(Step::passed).mapToInt(Step::rate).max().orElse(0);
    results.put(
        group,
        system,
        "(a) highest rate sustained, p99 ≤ 100 ms, tasks/s",
        Better.HIGHER,
        "%,.0f",
        best);
    List<String> tried = new ArrayList<>();
    steps.values().forEach(s -> tried.add(s.toString()));
    results.note("%s, %s, (a) rates tried: %s.", system, group, String.join("; ", tried));
  }

  /**
   * {@code rate × window} tasks sent open loop at {@code rate}; task i is due the lead time after
   * its send time. Waits for every acknowledged task to fire (bounded), then measures.
   */
  private Step fixedRate(String system, String group, int rate, boolean report) {
    int n = rate * o.windowSeconds();
    String prefix = "a" + (++seq);
    long startNanos = System.nanoTime() + 100_000_000;
    long startWall = System.currentTimeMillis() + 100;
    long[] due = new long[n];
    for (int i = 0; i < n; i++) {
      due[i] = startWall + o.leadMillis() + (long) i * 1_000 / rate;
    }
    Fires.Run run = Fires.begin(prefix, due);
    Usage usage = Usage.start();
    Clients.Outcome out =
        Clients.run(
            n,
            o.clients(),
            startNanos,
            1e9 / rate,
            startNanos + (2L * o.windowSeconds() + 5) * 1_000_000_000L,
            (t, i) -> c.schedule(t, run.id(i), due[i]));
    run.await(out.acked(), due[n - 1] + o.drainMillis());
    Usage.Used used = usage.stop();
    Histogram lateness = run.latenessMicros;
    int misses = run.misses(out.acknowledged());
    int duplicates = run.duplicates();
    double p99 = lateness.getValueAtPercentile(99) / 1_000.0;
    double sendShare = out.acked() / (double) n / Math.max(1, out.seconds() / o.windowSeconds());
    double firingSeconds = (run.lastMicros.get() - due[0] * 1_000) / 1e6;
    boolean passed =
        out.acked() == n
            && misses == 0
            && duplicates == 0
            && p99 <= P99_GOAL_MILLIS
            && out.perSecond() >= SEND_SHARE * rate;
    Step step =
        new Step(rate, passed, p99, misses, duplicates, Math.min(1, out.perSecond() / rate));
    log(
        "%s %s (a) %s; fired %,d of %,d acknowledged, early %d %s",
        system, group, step, run.fired.get(), out.acked(), run.early.get(), err(out));
    if (report) {
      String r = String.format(Locale.ROOT, "(a) %,d/s", rate);
      results.put(
          group, system, r + ": acknowledged schedules/s", Better.HIGHER, "%,.0f", out.perSecond());
      results.put(
          group, system, r + ": fires/s", Better.HIGHER, "%,.0f", run.fired.get() / firingSeconds);
      lateness(group, system, r, lateness);
      results.put(group, system, r + ": duplicates", Better.LOWER, "%,.0f", duplicates);
      results.put(group, system, r + ": not run by the deadline", Better.LOWER, "%,.0f", misses);
      usage(group, system, r, used);
      results.lateness(String.format(Locale.ROOT, "%,d/s, %s", rate, group), system, lateness);
    }
    settle(run, out.acked(), system, group, String.format(Locale.ROOT, "(a) %,d/s", rate));
    return step;
  }

  // --- (b) Burst --------------------------------------------------------------------------------

  private void burst(String system, String group, double ackRate) {
    int n = o.burst();
    String prefix = "b" + (++seq);
    long loadMillis = (long) (n / Math.max(ackRate, 1) * 1_300);
    long dueAt = System.currentTimeMillis() + loadMillis + o.leadMillis();
    long[] due = new long[n];
    java.util.Arrays.fill(due, dueAt);
    Fires.Run run = Fires.begin(prefix, due);
    Usage usage = Usage.start();
    long start = System.nanoTime();
    Clients.Outcome out =
        Clients.run(
            n,
            o.clients(),
            start,
            0,
            start + (loadMillis + o.leadMillis()) * 1_000_000L,
            (t, i) -> c.schedule(t, run.id(i), dueAt));
    boolean loadedInTime = System.currentTimeMillis() < dueAt;
    run.await(out.acked(), dueAt + Math.max(o.drainMillis(), 60_000));
    Usage.Used used = usage.stop();
    double seconds = (run.lastMicros.get() - dueAt * 1_000) / 1e6;
    String b = String.format(Locale.ROOT, "(b) burst of %,d", n);
    results.put(group, system, b + ": fires/s", Better.HIGHER, "%,.0f", run.fired.get() / seconds);
    lateness(group, system, b, run.latenessMicros);
    // the first delivery on its own: a burst's p50 and max say when most and all were delivered
    results.put(
        group,
        system,
        b + ": first fire, ms after due",
        Better.LOWER,
        "%,.1f",
        run.fired.get() == 0 ? Double.NaN : (run.firstMicros.get() - dueAt * 1_000) / 1e3);
    results.put(group, system, b + ": duplicates", Better.LOWER, "%,.0f", run.duplicates());
    results.put(
        group,
        system,
        b + ": not run by the deadline",
        Better.LOWER,
        "%,.0f",
        run.misses(out.acknowledged()));
    usage(group, system, b, used);
    if (!loadedInTime || out.acked() < n) {
      results.note(
          "%s, %s, (b): %,d of %,d acknowledged before the due instant%s.",
          system, group, out.acked(), n, loadedInTime ? "" : " (loading ran past it)");
    }
    log(
        "%s %s (b) %,d fired of %,d acknowledged in %.2f s %s",
        system, group, run.fired.get(), out.acked(), seconds, err(out));
    settle(run, out.acked(), system, group, b);
  }

  // --- (c) Set-then-cancel churn ----------------------------------------------------------------

  private void churn(String system, String group) {
    String prefix = "x" + (++seq);
    long[] due = new long[CAPACITY];
    Fires.Run run = Fires.begin(prefix, due);
    long lead = o.leadMillis() + 1_000;
    Usage usage = Usage.start();
    Clients.Outcome out =
        Clients.forSeconds(
            o.clients(),
            o.churnSeconds(),
            (t, i) -> {
              due[i] = System.currentTimeMillis() + lead;
              c.schedule(t, run.id(i), due[i]);
              c.cancel(t, run.id(i));
            });
    Usage.Used used = usage.stop();
    // Every cancelled task was due within `lead` of its pair: wait past the last of them.
    run.await(Integer.MAX_VALUE, System.currentTimeMillis() + lead + 2_000);
    String x = "(c) set-then-cancel";
    results.put(
        group, system, x + ": pairs/s acknowledged", Better.HIGHER, "%,.0f", out.perSecond());
    results.put(
        group, system, x + ": cancelled tasks executed", Better.LOWER, "%,.0f", run.fired.get());
    usage(group, system, x, used);
    log(
        "%s %s (c) %,.0f pairs/s, %d failed, %d cancelled executed %s",
        system, group, out.perSecond(), out.failed(), run.fired.get(), err(out));
  }

  // --- Helpers ----------------------------------------------------------------------------------

  private void lateness(String group, String system, String prefix, Histogram micros) {
    results.put(
        group,
        system,
        prefix + ": lateness p50 ms",
        Better.LOWER,
        "%.1f",
        micros.getValueAtPercentile(50) / 1_000.0);
    results.put(
        group,
        system,
        prefix + ": lateness p99 ms",
        Better.LOWER,
        "%.1f",
        micros.getValueAtPercentile(99) / 1_000.0);
    results.put(
        group,
        system,
        prefix + ": lateness max ms",
        Better.LOWER,
        "%.1f",
        micros.getMaxValue() / 1_000.0);
  }

  private void usage(String group, String system, String prefix, Usage.Used used) {
    results.put(group, system, prefix + ": CPU cores, JVM", Better.LOWER, "%.2f", used.jvmCores());
    results.put(
        group,
        system,
        prefix + ": CPU cores, PostgreSQL",
        Better.LOWER,
        "%.2f",
        used.postgresCores());
    results.put(
        group, system, prefix + ": peak heap MiB", Better.LOWER, "%,.0f", used.peakHeapMib());
  }

  private static String err(Clients.Outcome out) {
    return out.firstError() == null ? "" : "(first error: " + out.firstError() + ")";
  }

  static void log(String format, Object... args) {
    LOG.info(String.format(Locale.ROOT, format, args));
  }
}
