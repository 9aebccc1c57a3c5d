package io.signalbox.store.embedded;

import io.signalbox.store.postgres.PostgresSnapshotStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real PostgreSQL for tests: one server per test JVM, started lazily on first use, and a fresh
 * database per test class (or per call to {@link #newDatabase()}), dropped after the class.
 *
 * <p>The server is the embedded one, unless {@value #EXTERNAL_URL} names an external server
 * (e.g. {@code jdbc:postgresql://localhost:5432/postgres}, with {@value #EXTERNAL_USER} and
 * {@value #EXTERNAL_PASSWORD}); that user must be allowed to create databases.
 *
 * <pre>{@code @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();}</pre>
 */
public final class PostgresExtension implements BeforeAllCallback, AfterAllCallback {

  public static final String EXTERNAL_URL = "SIGNALBOX_TEST_DATABASE_URL";
  public static final String EXTERNAL_USER = "SIGNALBOX_TEST_DATABASE_USER";
  public static final String EXTERNAL_PASSWORD = "SIGNALBOX_TEST_DATABASE_PASSWORD";

  private static final Pattern DATABASE_IN_URL = Pattern.compile("^(jdbc:postgresql://[^/]*/)([^?]*)(.*)$");
  private static final AtomicInteger created = new AtomicInteger();
  private static final Object serverLock = new Object();
  /** Guarded by serverLock; lives until the JVM exits. */
  private static SharedServer server;

  private final List<String> databases = new ArrayList<>();
  private String classDatabaseUrl;

  /** The server the tests of this JVM share. */
  private record SharedServer(String adminUrl, String user, String password) {
    String urlOf(String database) {
      Matcher m = DATABASE_IN_URL.matcher(adminUrl);
      if (!m.matches()) {
        throw new IllegalArgumentException(EXTERNAL_URL + " must look like jdbc:postgresql://host:port/db, was " + adminUrl);
      }
      return m.group(1) + database + m.group(3);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    classDatabaseUrl = newDatabase();
  }

  @Override
  public void afterAll(ExtensionContext context) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (String database : databases) {
        s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
      }
    }
    databases.clear();
  }

  /** The JDBC URL of this test class's database. */
  public String jdbcUrl() {
    if (classDatabaseUrl == null) {
      throw new IllegalStateException("register PostgresExtension on a static field");
    }
    return classDatabaseUrl;
  }

  public String user() {
    return shared().user();
  }

  public String password() {
    return shared().password();
  }

  /** Creates an empty database (no schema) and returns its JDBC URL. */
  public String newDatabase() {
    String name = "sb_" + ProcessHandle.current().pid() + "_" + created.incrementAndGet();
    try (Connection c = admin(); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name);
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("could not create test database " + name, e);
    }
    databases.add(name);
    return shared().urlOf(name.toLowerCase(Locale.ROOT));
  }

  /** A migrated store on a new database. */
  public PostgresSnapshotStore openStore(Clock clock) {
    return PostgresSnapshotStore.open(newDatabase(), user(), password(), clock);
  }

  private Connection admin() throws SQLException {
    SharedServer s = shared();
    return DriverManager.getConnection(s.adminUrl(), s.user(), s.password());
  }

  private static SharedServer shared() {
    synchronized (serverLock) {
      if (server == null) {
        server = start();
      }
      return server;
    }
  }

  private static SharedServer start() {
    String external = System.getenv(EXTERNAL_URL);
    if (external != null && !external.isBlank()) {
      return new SharedServer(external, envOr(EXTERNAL_USER, ""), envOr(EXTERNAL_PASSWORD, ""));
    }
    try {
      Path dataDir = Files.createTempDirectory("signalbox-test-postgres");
      EmbeddedDatabase embedded = EmbeddedDatabase.start(dataDir);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        // zonky's own shutdown hook may be stopping the server concurrently, and then stop()
        // returns at once: wait for the postmaster itself before deleting its files.
        Optional<ProcessHandle> postmaster = EmbeddedDatabase.postmaster(dataDir);
        embedded.stop();
        postmaster.ifPresent(p -> awaitExit(p));
        deleteQuietly(dataDir);
      }, "signalbox-test-postgres-stop"));
      return new SharedServer(embedded.jdbcUrl(), EmbeddedDatabase.USER, "");
    } catch (IOException e) {
      throw new IllegalStateException("could not create a data directory for the test PostgreSQL", e);
    }
  }

  private static void awaitExit(ProcessHandle process) {
    try {
      process.onExit().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Best effort at JVM exit.
    }
  }

  private static String envOr(String name, String fallback) {
    String value = System.getenv(name);
    return value == null ? fallback : value;
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort at JVM exit: a leftover temp directory is harmless.
    }
  }
}
