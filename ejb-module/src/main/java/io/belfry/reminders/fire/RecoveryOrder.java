package io.belfry.reminders.fire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jboss.logging.Logger;

/**
 * The order in which a start's recovery reads the segments: the segment holding the earliest due
 * reminder first, as this node last knew them. Without it recovery read the segments in number
 * order, so a lone overdue reminder in one of the last segments fired only once nearly the whole
 * store had been read: 44.5 s after WildFly started at ten million reminders on one node
 * (docs/performance/cluster.md).
 *
 * <p>While it runs, a node records each segment's earliest due time, over its owned hints and its
 * standby hints, in a small file beside its store ({@link #FILE}): every scan interval when it has
 * changed, and when the scheduler stops. The next start reads the segments in that order. The file
 * is a hint, never trusted for what it says is due: recovery still reads every segment, and a
 * missing, stale or damaged file only makes the order worse, never the result. A reminder set after
 * the last record (at most a scan interval before a crash) is found where its segment comes.
 *
 * <p>Thread-safe: {@link #record} is called after runs, which may overlap, and at stop.
 */
final class RecoveryOrder {

  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  /** The file's name, in the store's directory. */
  static final String FILE = "belfry-recovery-order";

  // "BRO1": Belfry recovery order, form 1; then the segment count, then each segment's due time
  private static final int MAGIC = 0x42524F31;

  private final Optional<Path> file;
  private long[] recorded;

  RecoveryOrder(Optional<Path> file) {
    this.file = file;
  }

  /**
   * The segments {@code 0..segmentCount-1}, earliest recorded due time first; segments with none
   * recorded, and ties, in number order. Number order alone without a readable file of as many
   * segments.
   */
  int[] read(int segmentCount) {
    long[] due = load(segmentCount);
    IntStream segments = IntStream.range(0, segmentCount);
    if (due == null) {
      return segments.toArray();
    }
    return segments
        .boxed()
        .sorted(Comparator.<Integer>comparingLong(s -> due[s]).thenComparingInt(s -> s))
        .mapToInt(Integer::intValue)
        .toArray();
  }

  /**
   * Records each segment's earliest due time ({@code Long.MAX_VALUE}: nothing due); {@code null}
   * records nothing. Not under the scheduler's lock: it writes a file. A failed write is logged and
   * leaves the previous file, or none.
   */
  synchronized void record(long[] earliestDue) {
    if (earliestDue == null || file.isEmpty() || Arrays.equals(earliestDue, recorded)) {
      return;
    }
    Path target = file.get();
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(8 + 8 * earliestDue.length);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeInt(MAGIC);
        out.writeInt(earliestDue.length);
        for (long due : earliestDue) {
          out.writeLong(due);
        }
      }
      // whole or not at all: a start never reads half a file (no fsync: a lost write costs order)
      Path written = target.resolveSibling(target.getFileName() + ".new");
      Files.createDirectories(target.getParent());
      Files.write(written, bytes.toByteArray());
      try {
        Files.move(
            written, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(written, target, StandardCopyOption.REPLACE_EXISTING);
      }
      recorded = earliestDue;
    } catch (IOException | RuntimeException e) {
      LOG.warnf(
          "BELFRY-0347 Could not record the recovery order in %s; the next start reads segments"
              + " in number order: %s",
          target, e.toString());
    }
  }

  /** Each segment's due time from the file, or null if there is none of {@code segmentCount}. */
  private long[] load(int segmentCount) {
    if (file.isEmpty()) {
      return null;
    }
    try (DataInputStream in = new DataInputStream(Files.newInputStream(file.get()))) {
      if (in.readInt() != MAGIC || in.readInt() != segmentCount) {
        LOG.debugf("BELFRY-0348 %s is not an order of %d segments", file.get(), segmentCount);
        return null;
      }
      long[] due = new long[segmentCount];
      for (int s = 0; s < segmentCount; s++) {
        due[s] = in.readLong();
      }
      return due;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.warnf(
          "BELFRY-0349 Could not read the recovery order in %s; segments in number order: %s",
          file.get(), e.toString());
      return null;
    }
  }
}
