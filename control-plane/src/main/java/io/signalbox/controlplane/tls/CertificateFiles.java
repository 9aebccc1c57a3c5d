package io.signalbox.controlplane.tls;

import io.signalbox.source.file.WatchedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TLS server's certificate, key and (optionally) client CA files, each watched through
 * {@link WatchedFile} (rename, in-place write, Kubernetes secret symlink swap), handed on as one
 * {@link TlsMaterial} whenever a consistent set of them changes.
 *
 * <p>The files of one rotation do not change at the same instant: cert-manager and kubelet swap a
 * secret's files together, but each watcher sees its file on its own, so for a moment the new
 * certificate sits beside the old key. Such a set is not applied; the server keeps what it has
 * until the key that matches arrives. A missing or unreadable file is the same: logged, not applied.
 */
public final class CertificateFiles implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CertificateFiles.class);

  /**
   * Which files make a set.
   *
   * @param setting the config key the files come from ({@code xds.tls}), named in every message
   * @param caFile null when no client certificates are asked for
   */
  public record Paths(String setting, Path certFile, Path keyFile, Path caFile) {
    Map<String, Path> byKey() {
      Map<String, Path> files = new LinkedHashMap<>();
      files.put("certFile", certFile);
      files.put("keyFile", keyFile);
      if (caFile != null) {
        files.put("clientCaFile", caFile);
      }
      return files;
    }
  }

  private final Paths paths;
  private final Consumer<TlsMaterial> onChange;
  private final List<WatchedFile> watchers = new ArrayList<>();
  // Guarded by this: the newest complete content of each file (null: missing), and what was applied.
  private final Map<String, byte[]> latest = new LinkedHashMap<>();
  private Map<String, byte[]> applied;
  private boolean started;
  private long generation;
  // Guards delivered: two watcher threads may each have a new set; only the newer one is handed on.
  private final Object delivery = new Object();
  private long delivered;

  private CertificateFiles(Paths paths, Consumer<TlsMaterial> onChange) {
    this.paths = paths;
    this.onChange = onChange;
  }

  /** Reads the files once, as they are now. */
  public static Pem.Read<TlsMaterial> read(Paths paths) {
    Map<String, byte[]> content = new LinkedHashMap<>();
    for (Map.Entry<String, Path> file : paths.byKey().entrySet()) {
      try {
        content.put(file.getKey(), Files.readAllBytes(file.getValue()));
      } catch (NoSuchFileException e) {
        return new Pem.Read.Invalid<>(where(paths, file.getKey()) + ": does not exist");
      } catch (IOException e) {
        return new Pem.Read.Invalid<>(where(paths, file.getKey()) + ": cannot read: " + e.getMessage());
      }
    }
    return parse(paths, content);
  }

  /**
   * Starts watching; {@code onChange} gets every later consistent set, on a watcher thread.
   *
   * @return the files and, through {@link #current()}, the set they hold now
   * @throws IllegalStateException naming the file when the set as it is now cannot be used
   */
  public static CertificateFiles watch(Paths paths, Consumer<TlsMaterial> onChange) {
    CertificateFiles files = new CertificateFiles(paths, onChange);
    try {
      for (Map.Entry<String, Path> file : paths.byKey().entrySet()) {
        String key = file.getKey();
        files.watchers.add(WatchedFile.start(file.getValue(), event -> files.changed(key, event)));
      }
    } catch (IOException e) {
      files.close();
      throw new IllegalStateException("cannot watch the files of " + paths.setting() + ": " + e.getMessage(), e);
    }
    synchronized (files) {
      files.started = true;
      if (!(parse(paths, files.latest) instanceof Pem.Read.Ok<TlsMaterial>)) {
        files.close();
        throw new IllegalStateException(((Pem.Read.Invalid<TlsMaterial>) parse(paths, files.latest)).message());
      }
      files.applied = copy(files.latest);
    }
    return files;
  }

  /** The set the files hold now (the last one applied). */
  public synchronized TlsMaterial current() {
    return ((Pem.Read.Ok<TlsMaterial>) parse(paths, applied)).value();
  }

  private void changed(String key, WatchedFile.Event event) {
    TlsMaterial material;
    long mine;
    synchronized (this) {
      latest.put(key, event instanceof WatchedFile.Event.Content c ? c.bytes() : null);
      if (!started || sameAsApplied()) {
        return;
      }
      Pem.Read<TlsMaterial> read = parse(paths, latest);
      if (read instanceof Pem.Read.Invalid<TlsMaterial> invalid) {
        log.warn("{} changed, but its files do not make a usable set yet (a rotation writes them one by one); "
            + "still serving the previous certificate: {}", paths.setting(), invalid.message());
        return;
      }
      material = ((Pem.Read.Ok<TlsMaterial>) read).value();
      applied = copy(latest);
      mine = ++generation;
    }
    // Not under the content lock: the consumer builds a TLS context while the next event is read.
    // The delivery lock only orders hand-overs, so an older set never replaces a newer one.
    synchronized (delivery) {
      if (mine <= delivered) {
        return;
      }
      delivered = mine;
      onChange.accept(material);
    }
    log.info("{}: new handshakes now use certificate {}", paths.setting(), material.describe());
  }

  private boolean sameAsApplied() {
    if (applied == null || !applied.keySet().equals(latest.keySet())) {
      return false;
    }
    for (Map.Entry<String, byte[]> e : latest.entrySet()) {
      if (!Arrays.equals(e.getValue(), applied.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, byte[]> copy(Map<String, byte[]> content) {
    return new LinkedHashMap<>(content);
  }

  private static Pem.Read<TlsMaterial> parse(Paths paths, Map<String, byte[]> content) {
    for (String key : paths.byKey().keySet()) {
      if (content.get(key) == null) {
        return new Pem.Read.Invalid<>(where(paths, key) + ": does not exist");
      }
    }
    Pem.Read<List<X509Certificate>> chain = Pem.certificates(content.get("certFile"));
    if (chain instanceof Pem.Read.Invalid<List<X509Certificate>> bad) {
      return new Pem.Read.Invalid<>(where(paths, "certFile") + ": " + bad.message());
    }
    Pem.Read<PrivateKey> key = Pem.privateKey(content.get("keyFile"));
    if (key instanceof Pem.Read.Invalid<PrivateKey> bad) {
      return new Pem.Read.Invalid<>(where(paths, "keyFile") + ": " + bad.message());
    }
    List<X509Certificate> certs = ((Pem.Read.Ok<List<X509Certificate>>) chain).value();
    PrivateKey privateKey = ((Pem.Read.Ok<PrivateKey>) key).value();
    if (!Pem.matches(privateKey, certs.get(0))) {
      return new Pem.Read.Invalid<>(where(paths, "keyFile") + ": is not the key of the certificate in "
          + paths.certFile() + " ('" + certs.get(0).getSubjectX500Principal().getName() + "')");
    }
    List<X509Certificate> cas = List.of();
    if (paths.caFile() != null) {
      Pem.Read<List<X509Certificate>> ca = Pem.certificates(content.get("clientCaFile"));
      if (ca instanceof Pem.Read.Invalid<List<X509Certificate>> bad) {
        return new Pem.Read.Invalid<>(where(paths, "clientCaFile") + ": " + bad.message());
      }
      cas = ((Pem.Read.Ok<List<X509Certificate>>) ca).value();
    }
    return new Pem.Read.Ok<>(new TlsMaterial(privateKey, certs, cas));
  }

  private static String where(Paths paths, String key) {
    return paths.setting() + "." + key + " " + paths.byKey().get(key);
  }

  @Override
  public void close() {
    watchers.forEach(WatchedFile::close);
  }
}
