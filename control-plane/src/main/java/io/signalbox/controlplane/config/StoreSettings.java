package io.signalbox.controlplane.config;

import java.nio.file.Path;

/**
 * Where epochs are persisted.
 *
 * @param url {@code embedded} (PostgreSQL started on {@code dataDir}), {@code memory} (nothing
 *     survives a restart; tests and demos), or a {@code jdbc:postgresql://} URL
 * @param dataDir the embedded database's directory; absolute once loaded
 * @param retainEpochs how many epochs the log keeps
 */
public record StoreSettings(String url, Path dataDir, String user, String password, Integer retainEpochs) {
  public static final String EMBEDDED = "embedded";
  public static final String MEMORY = "memory";
  public static final Path DEFAULT_DATA_DIR = Path.of("./data");
  public static final int DEFAULT_RETAIN_EPOCHS = 100;

  public StoreSettings {
    url = url == null ? EMBEDDED : url;
    dataDir = dataDir == null ? DEFAULT_DATA_DIR : dataDir;
    retainEpochs = retainEpochs == null ? DEFAULT_RETAIN_EPOCHS : retainEpochs;
  }

  public static StoreSettings defaults() {
    return new StoreSettings(null, null, null, null, null);
  }

  public boolean embedded() {
    return EMBEDDED.equals(url);
  }

  public boolean memory() {
    return MEMORY.equals(url);
  }

  StoreSettings resolvedAgainst(Path baseDir) {
    return new StoreSettings(url, baseDir.resolve(dataDir).normalize(), user, password, retainEpochs);
  }

  @Override
  public String toString() {
    // Keep the password out of logs.
    return "StoreSettings[url=" + url + ", dataDir=" + dataDir + ", user=" + user
        + ", password=" + (password == null ? "null" : "***") + ", retainEpochs=" + retainEpochs + "]";
  }
}
