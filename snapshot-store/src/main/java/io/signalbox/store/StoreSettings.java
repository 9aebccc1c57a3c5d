package io.signalbox.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where epochs live: the {@code store} section of the config file.
 *
 * @param url {@code embedded} (PostgreSQL started by Signalbox in {@code dataDir}), {@code memory}
 *     (nothing survives a restart), or a {@code jdbc:postgresql://} URL of an external server
 * @param dataDir Signalbox's data directory; the embedded server keeps its files in
 *     {@code dataDir/postgres}
 * @param user for an external server; empty to take it from the URL
 * @param password for an external server; empty to take it from the URL
 */
public record StoreSettings(String url, Path dataDir, String user, String password) {
  public StoreSettings {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(dataDir, "dataDir");
    user = user == null ? "" : user;
    password = password == null ? "" : password;
  }

  public static StoreSettings embedded(Path dataDir) {
    return new StoreSettings(Stores.EMBEDDED, dataDir, "", "");
  }
}
