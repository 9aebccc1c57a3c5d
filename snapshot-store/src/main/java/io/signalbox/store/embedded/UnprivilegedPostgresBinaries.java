package io.signalbox.store.embedded;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * PostgreSQL refuses to run as root ({@code "root" execution of the PostgreSQL server is not
 * permitted}), and Signalbox's containers and CI run as root. This resolver serves zonky's binary
 * archive with {@code initdb}, {@code pg_ctl} and {@code postgres} replaced by wrappers that, when
 * started as root, re-exec the real binary inside a new user namespace (util-linux {@code unshare})
 * where root appears as {@code nobody}. Inside that namespace the files root owns on disk appear
 * owned by the server's own user, so the data directory and its parents need no chown or chmod.
 *
 * <p>The rewritten archive is cached beside zonky's unpacked binaries, so the (slow) xz
 * re-compression happens once per machine.
 */
final class UnprivilegedPostgresBinaries implements PgBinaryResolver {

  static final UnprivilegedPostgresBinaries INSTANCE = new UnprivilegedPostgresBinaries();

  private static final Logger log = LoggerFactory.getLogger(UnprivilegedPostgresBinaries.class);
  private static final Pattern WRAPPED = Pattern.compile("(\\./)?bin/(initdb|pg_ctl|postgres)");
  private static final String WRAPPER = """
      #!/bin/sh
      # Written by Signalbox. PostgreSQL will not run as root: as root, run the real binary in a
      # user namespace where we are 'nobody'; unprivileged (or already inside), run it directly.
      real="$0.real"
      if [ "$(id -u)" = 0 ]; then
        uid=$(id -u nobody 2>/dev/null || echo 65534)
        gid=$(id -g nobody 2>/dev/null || echo 65534)
        exec unshare --user --map-user="$uid" --map-group="$gid" "$real" "$@"
      fi
      exec "$real" "$@"
      """;

  private UnprivilegedPostgresBinaries() {}

  static boolean runningAsRoot() {
    return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
  }

  @Override
  public InputStream getPgBinary(String system, String machineHardware) throws IOException {
    InputStream original = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machineHardware);
    if (original == null) {
      return null;
    }
    byte[] archive;
    try (original) {
      archive = original.readAllBytes();
    }
    Path cacheDir = Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg");
    Files.createDirectories(cacheDir);
    Path cached = cacheDir.resolve("signalbox-unprivileged-" + sha256(archive) + ".txz");
    if (!Files.exists(cached)) {
      long started = System.nanoTime();
      Path partial = Files.createTempFile(cacheDir, "signalbox-unprivileged-", ".partial");
      try (OutputStream out = Files.newOutputStream(partial)) {
        rewrite(new ByteArrayInputStream(archive), out);
      }
      // Atomic so that concurrent test JVMs never read a half-written archive.
      Files.move(partial, cached, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      log.info("Prepared PostgreSQL binaries that run unprivileged under root in {} ms: {}",
          (System.nanoTime() - started) / 1_000_000, cached);
    }
    return Files.newInputStream(cached);
  }

  private static void rewrite(InputStream txz, OutputStream out) throws IOException {
    LZMA2Options fast = new LZMA2Options();
    fast.setMode(LZMA2Options.MODE_FAST);
    fast.setNiceLen(8);
    fast.setDepthLimit(4);
    fast.setDictSize(1 << 20);
    try (TarArchiveInputStream in = new TarArchiveInputStream(new XZInputStream(txz));
        TarArchiveOutputStream tar = new TarArchiveOutputStream(new XZOutputStream(out, fast))) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      TarArchiveEntry entry;
      while ((entry = in.getNextEntry()) != null) {
        if (entry.isFile() && WRAPPED.matcher(entry.getName()).matches()) {
          byte[] script = WRAPPER.getBytes(StandardCharsets.UTF_8);
          TarArchiveEntry wrapper = new TarArchiveEntry(entry.getName());
          wrapper.setMode(0755);
          wrapper.setSize(script.length);
          tar.putArchiveEntry(wrapper);
          tar.write(script);
          tar.closeArchiveEntry();
          entry.setName(entry.getName() + ".real");
        }
        tar.putArchiveEntry(entry);
        if (entry.isFile()) {
          in.transferTo(tar);
        }
        tar.closeArchiveEntry();
      }
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
