package io.signalbox.store.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server run from binaries shipped on Maven Central ({@code store.url: embedded}),
 * whose data lives in a directory the caller chooses so that it survives restarts.
 *
 * <p>Starting recovers from a previous crash first (see {@link StalePostmaster}): when the JVM was
 * killed, the server it started keeps running on the data directory, and a plain start would fail.
 */
public final class EmbeddedDatabase implements AutoCloseable {

  /** The superuser initdb creates; the server trusts local connections, so it has no password. */
  public static final String USER = "postgres";

  private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabase.class);

  private final EmbeddedPostgres server;
  private final Path dataDir;

  /** Where {@code store.url: embedded} keeps its cluster, under {@code store.dataDir}. */
  public static Path clusterDirectory(Path storeDataDir) {
    return storeDataDir.resolve("postgres");
  }

  /**
   * The PostgreSQL server running on the cluster in {@code clusterDir}, if any: the live process its
   * {@code postmaster.pid} names. {@code pg_ctl} daemonizes it, so it is not a descendant of the JVM
   * that started it.
   */
  public static Optional<ProcessHandle> postmaster(Path clusterDir) {
    try {
      List<String> lines = Files.readAllLines(clusterDir.resolve("postmaster.pid"));
      return lines.isEmpty() ? Optional.empty()
          : ProcessHandle.of(Long.parseLong(lines.get(0).trim())).filter(ProcessHandle::isAlive);
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private EmbeddedDatabase(EmbeddedPostgres server, Path dataDir) {
    this.server = server;
    this.dataDir = dataDir;
  }

  /** Starts on {@code dataDir} (created and initialized if needed) on a free loopback port. */
  public static EmbeddedDatabase start(Path dataDir) {
    return start(dataDir, 0);
  }

  /** As {@link #start(Path)}, on {@code port} (0 picks a free one). */
  public static EmbeddedDatabase start(Path dataDir, int port) {
    Path dir = dataDir.toAbsolutePath().normalize();
    long started = System.nanoTime();
    try {
      Files.createDirectories(dir);
      StalePostmaster.clear(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not recover " + dir + " from a previous run", e);
    }
    try {
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
          .setDataDirectory(dir)
          .setCleanDataDirectory(false)
          .setPort(port)
          .setPGStartupWait(Duration.ofSeconds(60))
          // zonky turns synchronous_commit off for speed; persist-first needs a commit to be durable
          // when append() returns, even if the whole process tree is killed right after.
          .setServerConfig("synchronous_commit", "on")
          .setServerConfig("listen_addresses", "localhost");
      if (UnprivilegedPostgresBinaries.runningAsRoot()) {
        builder.setPgBinaryResolver(UnprivilegedPostgresBinaries.INSTANCE);
      }
      EmbeddedPostgres server = builder.start();
      log.info("Embedded PostgreSQL started on port {} with data in {} ({} ms)",
          server.getPort(), dir, (System.nanoTime() - started) / 1_000_000);
      return new EmbeddedDatabase(server, dir);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("could not start embedded PostgreSQL on " + dir + hint(e), e);
    }
  }

  /** zonky's message when no {@code postgres-<os>-<arch>.txz} is on the classpath. */
  static final String ZONKY_MISSING_BINARIES = "Missing embedded postgres binaries";

  /**
   * Why the start most likely failed. A jar built with {@code -Dsignalbox.postgres.platform=none}
   * (the external-PostgreSQL image) or for another platform carries no binaries for this one.
   */
  static String hint(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IllegalStateException && ZONKY_MISSING_BINARIES.equals(t.getMessage())) {
        return ": this build carries no PostgreSQL server binaries for " + System.getProperty("os.name") + " "
            + System.getProperty("os.arch") + " (built for an external PostgreSQL, or for another platform);"
            + " set store.url to a jdbc:postgresql:// URL, or use a build made on this platform";
      }
    }
    return UnprivilegedPostgresBinaries.runningAsRoot()
        ? " (running as root, PostgreSQL is started through 'unshare --user': util-linux must be"
            + " installed and user namespaces allowed; or run Signalbox as an unprivileged user)"
        : "";
  }

  public int port() {
    return server.getPort();
  }

  public Path dataDir() {
    return dataDir;
  }

  /** JDBC URL of the {@code postgres} database, user {@value #USER} included. */
  public String jdbcUrl() {
    return jdbcUrl("postgres");
  }

  public String jdbcUrl(String database) {
    return server.getJdbcUrl(USER, database);
  }

  public DataSource dataSource() {
    return server.getPostgresDatabase();
  }

  /** Stops the server (fast shutdown: open sessions are ended, committed data is kept). */
  public void stop() {
    try {
      server.close();
      log.info("Embedded PostgreSQL on {} stopped", dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop embedded PostgreSQL on " + dataDir, e);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
