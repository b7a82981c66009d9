package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * The audit path off the firing path. Engine threads only {@link #enqueue} (a lock-free-ish offer
 * onto an unbounded queue, never I/O); one writer thread does everything else:
 *
 * <ol>
 *   <li>replays the spill file first, if there is one, so that older records go in first;
 *   <li>drains the queue in batches of up to {@code batchSize} and inserts each batch with one JDBC
 *       batch in one transaction ({@link AuditRows}, idempotent by activity id);
 *   <li>when the database fails, keeps the batch, retries with exponential back-off, and whenever
 *       more than {@code capacity} records wait in memory moves them all to the spill file ({@link
 *       AuditSpill}). Memory is thus bounded by the writer, and nothing is dropped.
 * </ol>
 *
 * <p>The engine thread wakes the writer when the queue passes capacity, so spilling does not wait
 * for the back-off to end. Idle, the writer waits on the queue itself.
 */
public class AuditPipeline {

  private static final Logger LOG = Logger.getLogger(AuditPipeline.class);

  public static final int DEFAULT_CAPACITY = 50_000;
  public static final int DEFAULT_BATCH_SIZE = 500;
  public static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  // long enough to cost nothing when idle, short enough to notice a stop request promptly
  private static final Duration IDLE_WAIT = Duration.ofSeconds(1);

  /**
   * How long the writer waits for more records after the first of a batch arrives, unless the batch
   * fills first. Records come one at a time (a set, a fire), and each transaction's commit is most
   * of the database's cost: without this wait a steady 200 sets/s wrote batches of one or two rows,
   * a commit each, and the audit took a third of the node's CPU (docs/performance/comparison.md). A
   * record is thus archived up to this much later; firing never waits for it.
   */
  static final Duration LINGER = Duration.ofMillis(50);

  private final AuditRows rows;
  private final AuditSpill spill;
  private final Clock clock;
  private final int capacity;
  private final int batchSize;

  private final LinkedBlockingQueue<PendingAudit> queue = new LinkedBlockingQueue<>();
  // touched only by the writer thread; its size is published for the metrics
  private final List<PendingAudit> inFlight = new ArrayList<>();
  // counts a record from before it is queued until it is written or spilled, so it is never
  // invisible to awaitDrained while the writer holds it between the queue and the batch
  private final AtomicInteger inMemory = new AtomicInteger();
  private volatile Instant oldestInFlight;
  private volatile boolean spillPending;

  private final AtomicLong written = new AtomicLong();
  private final AtomicLong spilled = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  private final ReentrantLock progress = new ReentrantLock();
  private final Condition wroteSomething = progress.newCondition();

  private volatile Thread writerThread;
  private volatile boolean stopping;

  public AuditPipeline(AuditRows rows, AuditSpill spill, Clock clock, int capacity, int batchSize) {
    if (capacity < batchSize || batchSize < 1) {
      throw new IllegalArgumentException(
          "need 1 <= batchSize <= capacity, got " + batchSize + " and " + capacity);
    }
    this.rows = rows;
    this.spill = spill;
    this.clock = clock;
    this.capacity = capacity;
    this.batchSize = batchSize;
    this.spillPending = spill.hasRecords();
  }

  /** Queues an activity; never blocks, never throws, never does I/O. Called on engine threads. */
  public void enqueue(ReminderActivity activity) {
    try {
      PendingAudit record = PendingAudit.of(activity, clock.instant());
      int depth = inMemory.incrementAndGet();
      queue.offer(record);
      Thread writer = writerThread;
      if (writer != null && depth > capacity) {
        LockSupport.unpark(writer);
      }
    } catch (RuntimeException e) {
      LOG.errorf(e, "BELFRY-0401 Could not queue the audit record of %s", activity);
    }
  }

  /**
   * Writes {@code activities} at once, on the calling thread and in one transaction, bypassing the
   * queue: for records whose subject goes away once they are archived (expired tombstones).
   *
   * @throws SQLException if the database did not take them; nothing was written
   */
  public void writeNow(List<ReminderActivity> activities) throws SQLException {
    Instant now = clock.instant();
    List<PendingAudit> batch = activities.stream().map(a -> PendingAudit.of(a, now)).toList();
    rows.insert(batch);
    written.addAndGet(batch.size());
    signalProgress();
  }

  /**
   * One round of the writer: replay the spill file, then write one batch from the queue.
   *
   * @return false if the database (or the disk) failed; the records stay queued or spilled
   */
  boolean writeOnce() {
    try {
      if (spillPending) {
        long replayed = spill.replay(batchSize, batch -> writeBatch(batch, false));
        spillPending = false;
        if (replayed > 0) {
          LOG.infof("BELFRY-0402 Replayed %d audit records from %s", replayed, spill.file());
        }
      }
      if (inFlight.isEmpty()) {
        queue.drainTo(inFlight, batchSize);
        publishInFlight();
      }
      if (!inFlight.isEmpty()) {
        writeBatch(inFlight, true);
        inFlight.clear();
        publishInFlight();
      }
      return true;
    } catch (Exception e) {
      if (failures.incrementAndGet() == 1 || LOG.isDebugEnabled()) {
        LOG.warnf(e, "BELFRY-0403 The audit database is not writable; records are kept");
      }
      relievePressure();
      return false;
    }
  }

  private void writeBatch(List<PendingAudit> batch, boolean fromMemory) throws Exception {
    rows.insert(batch);
    written.addAndGet(batch.size());
    if (fromMemory) {
      inMemory.addAndGet(-batch.size());
    }
    signalProgress();
  }

  private void signalProgress() {
    progress.lock();
    try {
      wroteSomething.signalAll();
    } finally {
      progress.unlock();
    }
  }

  /** Adds what arrives within {@link #LINGER} to the batch begun in {@code inFlight}. */
  private void lingerForMore() throws InterruptedException {
    long deadline = System.nanoTime() + LINGER.toNanos();
    while (inFlight.size() < batchSize && !stopping) {
      queue.drainTo(inFlight, batchSize - inFlight.size());
      long left = deadline - System.nanoTime();
      if (inFlight.size() >= batchSize || left <= 0) {
        return;
      }
      PendingAudit more = queue.poll(left, TimeUnit.NANOSECONDS);
      if (more == null) {
        return;
      }
      inFlight.add(more);
    }
  }

  /** Moves everything waiting in memory to the spill file once it exceeds the capacity. */
  void relievePressure() {
    if (inMemory.get() <= capacity) {
      return;
    }
    List<PendingAudit> moving = new ArrayList<>(inFlight);
    queue.drainTo(moving);
    try {
      spill.append(moving);
      spillPending = true;
      spilled.addAndGet(moving.size());
      inMemory.addAndGet(-moving.size());
      inFlight.clear();
      publishInFlight();
    } catch (Exception e) {
      // disk trouble too: keep what did not make it to the file in memory rather than lose it
      LOG.errorf(e, "BELFRY-0404 Could not spill %d audit records to %s", moving.size(), spill);
      inFlight.clear();
      inFlight.addAll(moving);
      publishInFlight();
    }
  }

  /** The writer's loop; returns when {@link #stop} is called. Run on a dedicated thread. */
  public void run() {
    writerThread = Thread.currentThread();
    Duration backoff = FIRST_BACKOFF;
    try {
      while (!stopping) {
        if (queue.isEmpty() && inFlight.isEmpty() && !spillPending) {
          PendingAudit next = queue.poll(IDLE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
          if (next != null) {
            inFlight.add(next);
            publishInFlight();
            lingerForMore();
          }
          continue;
        }
        // the database is up but slower than the engine: keep memory bounded all the same
        relievePressure();
        if (writeOnce()) {
          backoff = FIRST_BACKOFF;
        } else {
          backOff(backoff);
          Duration doubled = backoff.multipliedBy(2);
          backoff = doubled.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : doubled;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      flushOnStop();
      writerThread = null;
    }
  }

  private void backOff(Duration backoff) throws InterruptedException {
    long deadline = System.nanoTime() + backoff.toNanos();
    long left;
    while (!stopping && (left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(this, left);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      relievePressure();
    }
  }

  // One last attempt at the database, then the file: an undeploy loses nothing.
  private void flushOnStop() {
    try {
      if (!inFlight.isEmpty() || !queue.isEmpty()) {
        List<PendingAudit> rest = new ArrayList<>(inFlight);
        queue.drainTo(rest);
        inFlight.clear();
        int done = 0;
        try {
          for (int from = 0; from < rest.size(); from += batchSize) {
            writeBatch(rest.subList(from, Math.min(rest.size(), from + batchSize)), true);
            done = Math.min(rest.size(), from + batchSize);
          }
        } catch (Exception e) {
          List<PendingAudit> unwritten = rest.subList(done, rest.size());
          spill.append(unwritten);
          spilled.addAndGet(unwritten.size());
          inMemory.addAndGet(-unwritten.size());
          LOG.warnf("BELFRY-0405 Spilled %d audit records to %s at stop", unwritten.size(), spill);
        }
      }
    } catch (Exception e) {
      LOG.errorf(e, "BELFRY-0406 Lost audit records at stop: the database and %s failed", spill);
    } finally {
      publishInFlight();
    }
  }

  /** Asks the writer to finish: it flushes or spills what is queued, then {@link #run} returns. */
  public void stop() {
    stopping = true;
    Thread writer = writerThread;
    if (writer != null) {
      LockSupport.unpark(writer);
    }
  }

  /**
   * Waits until nothing is queued, in flight or spilled, i.e. everything enqueued before the call
   * is in the database; false on timeout.
   */
  public boolean awaitDrained(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    progress.lock();
    try {
      while (queueDepth() > 0 || spillPending) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        // bounded, because an idle-to-empty transition without a write does not signal
        wroteSomething.await(
            Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
      }
      return true;
    } finally {
      progress.unlock();
    }
  }

  /**
   * Waits until more than {@code count} records have been written (see {@link #recordsWritten()});
   * false on timeout. Lets a reader re-check the database exactly when something new is there.
   */
  public boolean awaitWrittenMoreThan(long count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    progress.lock();
    try {
      while (written.get() <= count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        wroteSomething.awaitNanos(left);
      }
      return true;
    } finally {
      progress.unlock();
    }
  }

  /** Records waiting in memory (queued or in the batch being written). */
  public int queueDepth() {
    return inMemory.get();
  }

  /** How long the oldest record still in memory has waited: the write lag. Zero when none. */
  public Duration writeLag() {
    Instant oldest = oldestInFlight;
    PendingAudit head = queue.peek();
    if (oldest == null && head != null) {
      oldest = head.queuedAt();
    }
    return oldest == null ? Duration.ZERO : Duration.between(oldest, clock.instant());
  }

  public long recordsWritten() {
    return written.get();
  }

  public long recordsSpilled() {
    return spilled.get();
  }

  public boolean hasSpilledRecords() {
    return spillPending;
  }

  public long writeFailures() {
    return failures.get();
  }

  private void publishInFlight() {
    oldestInFlight = inFlight.isEmpty() ? null : inFlight.get(0).queuedAt();
  }
}
