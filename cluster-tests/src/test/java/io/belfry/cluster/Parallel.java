package io.belfry.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs the client's requests on a few threads, as several clients of the cluster would. */
final class Parallel {

  interface Task {
    void run(int i) throws Exception;
  }

  private Parallel() {}

  /** Runs {@code task} for 0 .. count-1 on four threads; rethrows the first failure. */
  static void forEach(int count, Task task) throws Exception {
    forEach(count, 4, task);
  }

  /** Runs {@code task} for 0 .. count-1 on {@code threads} threads; rethrows the first failure. */
  static void forEach(int count, int threads, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        futures.add(
            pool.submit(
                () -> {
                  task.run(index);
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
