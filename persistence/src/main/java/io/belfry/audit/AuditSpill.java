package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The overflow of the audit queue on local disk: an append-only file of tab-separated lines, one
 * per record, written and read only by the writer thread. Replaying is idempotent (records keep
 * their activity id), so the file is deleted only after every line was written, and a crash during
 * a replay just replays again.
 *
 * <p>Line format, version 2: {@code 2 TAB activityId TAB queuedAt TAB type TAB namespace TAB key
 * TAB version TAB occurrence TAB dueAt TAB at TAB node TAB detail TAB principal}, instants as epoch
 * milliseconds, {@code -} for a missing value, text escaped so that it holds no tab or line break.
 * Version 1 lines (no principal) are still read.
 */
public class AuditSpill {

  /** The first field of every line, so that a later format can still read older files. */
  static final String FORMAT_VERSION = "2";

  private static final String FORMAT_VERSION_1 = "1";

  private static final String NONE = "-";

  private static final Logger LOG = Logger.getLogger(AuditSpill.class);

  private final Path file;

  public AuditSpill(Path file) {
    this.file = file;
  }

  public Path file() {
    return file;
  }

  public boolean hasRecords() {
    return Files.exists(file);
  }

  /** Appends the records and forces them to disk: once this returns they survive a crash. */
  public void append(Collection<PendingAudit> records) throws IOException {
    if (records.isEmpty()) {
      return;
    }
    Files.createDirectories(file.getParent());
    boolean tornLastLine = endsInsideALine();
    try (BufferedWriter out =
        Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      if (tornLastLine) {
        // a crash cut the last append short: start on a fresh line, so only that line is lost
        out.write('\n');
      }
      for (PendingAudit record : records) {
        out.write(line(record));
        out.write('\n');
      }
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  private boolean endsInsideALine() throws IOException {
    if (!Files.exists(file) || Files.size(file) == 0) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer last = ByteBuffer.allocate(1);
      channel.read(last, channel.size() - 1);
      return last.get(0) != '\n';
    }
  }

  /** What a replay does with each batch of spilled records. */
  @FunctionalInterface
  public interface BatchSink {
    void write(List<PendingAudit> batch) throws Exception;
  }

  /**
   * Hands every spilled record to {@code sink} in batches of up to {@code batchSize}, then deletes
   * the file. If the sink fails, the file stays for the next replay. Lines that cannot be read (a
   * line torn by a crash) are moved to a {@code .rejected} file next to it and logged.
   *
   * @return how many records were replayed
   */
  public long replay(int batchSize, BatchSink sink) throws Exception {
    if (!hasRecords()) {
      return 0;
    }
    long replayed = 0;
    List<String> rejected = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      List<PendingAudit> batch = new ArrayList<>(batchSize);
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        try {
          batch.add(parse(line));
        } catch (RuntimeException e) {
          // a torn last line (crash during an append) must not block every later replay
          rejected.add(line);
          continue;
        }
        if (batch.size() == batchSize) {
          sink.write(batch);
          replayed += batch.size();
          batch = new ArrayList<>(batchSize);
        }
      }
      if (!batch.isEmpty()) {
        sink.write(batch);
        replayed += batch.size();
      }
    }
    if (!rejected.isEmpty()) {
      Path aside = file.resolveSibling(file.getFileName() + ".rejected");
      Files.write(
          aside,
          rejected,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      LOG.errorf("BELFRY-0413 %d unreadable audit spill lines moved to %s", rejected.size(), aside);
    }
    Files.delete(file);
    return replayed;
  }

  static String line(PendingAudit record) {
    ReminderActivity a = record.activity();
    return String.join(
        "\t",
        FORMAT_VERSION,
        escape(record.activityId()),
        Long.toString(record.queuedAt().toEpochMilli()),
        a.type().name(),
        escape(a.namespace()),
        escape(a.key()),
        Long.toString(a.version()),
        Long.toString(a.occurrence()),
        a.dueAt() == null ? NONE : Long.toString(a.dueAt().toEpochMilli()),
        Long.toString(a.at().toEpochMilli()),
        optional(a.node()),
        optional(a.detail()),
        optional(a.principal()));
  }

  private static String optional(String value) {
    return value == null ? NONE : escape(value);
  }

  private static String optional(String[] fields, int index) {
    return index >= fields.length || NONE.equals(fields[index]) ? null : unescape(fields[index]);
  }

  static PendingAudit parse(String line) {
    String[] f = line.split("\t", -1);
    boolean current = f.length == 13 && FORMAT_VERSION.equals(f[0]);
    boolean first = f.length == 12 && FORMAT_VERSION_1.equals(f[0]);
    if (!current && !first) {
      throw new UncheckedIOException(
          new IOException("not a version " + FORMAT_VERSION + " audit spill line: " + line));
    }
    ReminderActivity activity =
        new ReminderActivity(
            ReminderActivity.Type.valueOf(f[3]),
            unescape(f[4]),
            unescape(f[5]),
            Long.parseLong(f[6]),
            Long.parseLong(f[7]),
            NONE.equals(f[8]) ? null : Instant.ofEpochMilli(Long.parseLong(f[8])),
            Instant.ofEpochMilli(Long.parseLong(f[9])),
            optional(f, 10),
            optional(f, 11),
            optional(f, 12));
    return new PendingAudit(unescape(f[1]), activity, Instant.ofEpochMilli(Long.parseLong(f[2])));
  }

  // A value that is literally "-" is escaped as "\-" so that it stays apart from "no value".
  static String escape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default -> out.append(c);
      }
    }
    return NONE.equals(value) ? "\\" + NONE : out.toString();
  }

  static String unescape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        char next = value.charAt(++i);
        switch (next) {
          case 't' -> out.append('\t');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          default -> out.append(next);
        }
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
