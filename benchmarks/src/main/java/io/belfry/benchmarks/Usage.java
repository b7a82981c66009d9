package io.belfry.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.locks.LockSupport;

/**
 * CPU and heap over one workload: this JVM's CPU time (every system under test runs in it), the CPU
 * time of the PostgreSQL processes, and the JVM's peak heap (the sum of the heap pools' peaks since
 * the start, an upper bound of the true peak).
 */
final class Usage {

  private final long startNanos = System.nanoTime();
  private final long startCpuNanos = processCpuNanos();
  private final double startPgSeconds = Postgres.cpuSeconds();

  private Usage() {}

  static Usage start() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    return new Usage();
  }

  /** What the workload used: CPU cores on average (JVM, PostgreSQL) and peak heap MiB. */
  record Used(double jvmCores, double postgresCores, double peakHeapMib) {}

  Used stop() {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    double jvm = (processCpuNanos() - startCpuNanos) / 1e9 / seconds;
    double pg = (Postgres.cpuSeconds() - startPgSeconds) / seconds;
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return new Used(jvm, pg, peak / 1048576.0);
  }

  static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  /** Used heap after a few full collections: the smallest reading. */
  static long usedHeapAfterGc() {
    var memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      LockSupport.parkNanos(200_000_000);
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
