package io.signalbox.store.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clears what a crashed run left on a data directory before the embedded server starts again.
 *
 * <p>When the JVM is killed (OOM killer, SIGKILL, a container runtime stopping only the main
 * process), PostgreSQL keeps running: {@code pg_ctl} daemonizes it. Its {@code postmaster.pid}
 * names a live process, so a new server on that directory refuses to start, and the orphan holds
 * the data. When the whole process tree was killed, the file names a process that is gone, or a
 * reused pid that now belongs to something else.
 */
final class StalePostmaster {

  private static final Logger log = LoggerFactory.getLogger(StalePostmaster.class);
  /** zonky's lock file: held for as long as a live EmbeddedPostgres owns the directory. */
  private static final String OWNER_LOCK = "epg-lock";
  private static final long FAST_SHUTDOWN_SECONDS = 30;

  private StalePostmaster() {}

  static void clear(Path dataDir) throws IOException {
    Path pidFile = dataDir.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return;
    }
    refuseIfOwned(dataDir);
    List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
    Optional<Long> pid = lines.isEmpty() ? Optional.empty() : parsePid(lines.get(0));
    Optional<ProcessHandle> process = pid.flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
    if (process.isEmpty()) {
      log.warn("Removing {}: the server it names ({}) is gone, left by a crash", pidFile,
          pid.map(String::valueOf).orElse("unreadable"));
      Files.deleteIfExists(pidFile);
      return;
    }
    Optional<String> command = process.get().info().command();
    if (command.isEmpty()) {
      // Cannot tell what it is: leave the decision to PostgreSQL's own shared-memory interlock.
      log.warn("{} names live process {} whose command is unknown; not touching it", pidFile, pid.get());
      return;
    }
    if (!isPostgres(command.get())) {
      log.warn("Removing {}: its pid {} now belongs to {}, not PostgreSQL", pidFile, pid.get(), command.get());
      Files.deleteIfExists(pidFile);
      return;
    }
    log.warn("PostgreSQL {} is still running on {}, orphaned by a previous run that crashed; stopping it",
        pid.get(), dataDir);
    stop(process.get());
    Files.deleteIfExists(pidFile);
  }

  private static boolean isPostgres(String command) {
    return command.endsWith("/postgres") || command.endsWith("/postgres.real");
  }

  /** A live owner still holds zonky's lock: that server is in use, not orphaned. */
  private static void refuseIfOwned(Path dataDir) throws IOException {
    Path lockFile = dataDir.resolve(OWNER_LOCK);
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new IllegalStateException("data directory " + dataDir + " is in use by another running process");
      }
      lock.release();
    } catch (OverlappingFileLockException e) {
      throw new IllegalStateException("data directory " + dataDir + " is in use by this process", e);
    }
  }

  private static Optional<Long> parsePid(String line) {
    try {
      return Optional.of(Long.parseLong(line.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * SIGINT is PostgreSQL's fast shutdown: sessions end, the checkpoint is written, the pid file is
   * removed. SIGTERM would be smart shutdown and wait for every client. SIGKILL only as a last resort:
   * crash recovery on the next start still keeps every committed transaction.
   */
  private static void stop(ProcessHandle postmaster) throws IOException {
    List<ProcessHandle> children = postmaster.descendants().toList();
    try {
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(postmaster.pid()))
          .redirectErrorStream(true).start();
      kill.waitFor(10, TimeUnit.SECONDS);
      if (!awaitExit(postmaster, FAST_SHUTDOWN_SECONDS)) {
        log.warn("PostgreSQL {} ignored fast shutdown for {} s; killing it", postmaster.pid(), FAST_SHUTDOWN_SECONDS);
        postmaster.destroyForcibly();
        if (!awaitExit(postmaster, 10)) {
          throw new IOException("could not stop orphaned PostgreSQL " + postmaster.pid());
        }
      }
      // Backends exit once they see the postmaster gone; until then they hold its shared memory.
      for (ProcessHandle child : children) {
        awaitExit(child, 10);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping orphaned PostgreSQL " + postmaster.pid(), e);
    }
  }

  private static boolean awaitExit(ProcessHandle process, long seconds) throws InterruptedException {
    try {
      process.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !process.isAlive();
    }
  }
}
