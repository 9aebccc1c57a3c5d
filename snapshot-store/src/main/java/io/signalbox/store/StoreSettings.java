package io.signalbox.store;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where epochs are persisted: the {@code store} section of the config file as read, and what
 * {@link Stores#open} opens (with a URL, user or password from the command line or the environment
 * put in by {@link #withConnection}). The one type for it, and the one home of the rule that says
 * which URLs are accepted and which of them is an external server.
 *
 * @param url {@code embedded} (PostgreSQL started by Signalbox in {@code dataDir}), {@code memory}
 *     (nothing survives a restart; tests and demos), or a {@code jdbc:postgresql:} URL of an external
 *     server
 * @param dataDir Signalbox's data directory (the embedded server keeps its files in
 *     {@code dataDir/postgres}); absolute once the config is loaded
 * @param user for an external server; unset to take it from the URL
 * @param password for an external server; unset to take it from the URL
 * @param retainEpochs how many epochs the log keeps
 * @param history the stream history and its retention
 */
public record StoreSettings(String url, Path dataDir, String user, String password, Integer retainEpochs,
    HistorySettings history) {
  public static final String EMBEDDED = "embedded";
  public static final String MEMORY = "memory";
  /** Every URL of PostgreSQL's JDBC driver, with a host ({@code //db/signalbox}) or without. */
  public static final String POSTGRESQL_JDBC = "jdbc:postgresql:";
  public static final Path DEFAULT_DATA_DIR = Path.of("./data");
  public static final int DEFAULT_RETAIN_EPOCHS = 100;

  public StoreSettings {
    url = url == null ? EMBEDDED : url;
    dataDir = dataDir == null ? DEFAULT_DATA_DIR : dataDir;
    retainEpochs = retainEpochs == null ? DEFAULT_RETAIN_EPOCHS : retainEpochs;
    history = history == null ? HistorySettings.defaults() : history;
  }

  /** Settings with the default stream history. */
  public StoreSettings(String url, Path dataDir, String user, String password, Integer retainEpochs) {
    this(url, dataDir, user, password, retainEpochs, null);
  }

  /** Settings for a store opened directly (a test, the demo); the log keeps the default number of epochs. */
  public StoreSettings(String url, Path dataDir, String user, String password) {
    this(url, dataDir, user, password, null);
  }

  public static StoreSettings defaults() {
    return new StoreSettings(null, null, null, null, null);
  }

  public static StoreSettings embedded(Path dataDir) {
    return new StoreSettings(EMBEDDED, dataDir, null, null, null);
  }

  public boolean embedded() {
    return EMBEDDED.equals(url);
  }

  public boolean memory() {
    return MEMORY.equals(url);
  }

  /**
   * A PostgreSQL server of its own: what replicas share. {@code embedded} and {@code memory} are
   * one process's. Any other URL is refused ({@link #urlProblem}), so it is never taken for one.
   */
  public boolean external() {
    return url.startsWith(POSTGRESQL_JDBC);
  }

  /**
   * Why {@code url} names no store Signalbox can open, or empty. Another JDBC driver's URL
   * ({@code jdbc:mysql:...}) is refused here rather than taken for an external server: the store is
   * PostgreSQL, and a replica that starts against anything else would only fail later, less clearly.
   */
  public static Optional<String> urlProblem(String url) {
    if (url == null || url.equals(EMBEDDED) || url.equals(MEMORY) || url.startsWith(POSTGRESQL_JDBC)) {
      return Optional.empty();
    }
    return Optional.of("must be 'embedded', 'memory' or a jdbc:postgresql:// URL, was '" + redacted(url) + "'");
  }

  /** These settings with the data directory resolved against {@code baseDir} (the config file's). */
  public StoreSettings resolvedAgainst(Path baseDir) {
    return new StoreSettings(url, baseDir.resolve(dataDir).normalize(), user, password, retainEpochs, history);
  }

  /** These settings with the connection the command line or the environment gives, where it gives one. */
  public StoreSettings withConnection(String url, String user, String password) {
    return new StoreSettings(url != null ? url : this.url, dataDir, user != null ? user : this.user,
        password != null ? password : this.password, retainEpochs, history);
  }

  /** A URL as messages may show it: a password in it ({@code //user:secret@host}) hidden. */
  static String redacted(String url) {
    int at = url.indexOf('@');
    int scheme = url.indexOf("://");
    return at > 0 && scheme >= 0 && at > scheme ? url.substring(0, scheme + 3) + "***" + url.substring(at) : url;
  }

  @Override
  public String toString() {
    // Keep the password out of logs.
    return "StoreSettings[url=" + redacted(url) + ", dataDir=" + dataDir + ", user=" + user
        + ", password=" + (password == null ? "null" : "***") + ", retainEpochs=" + retainEpochs + ", history=" + history + "]";
  }
}
