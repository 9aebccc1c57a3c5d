package io.signalbox.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreSettings;
import io.signalbox.store.Stores;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedDatabaseTest {

  @TempDir Path dataDir;

  private final Clock clock = Clock.systemUTC();

  @Test
  void keepsEpochsAcrossARestartOnTheSameDataDir() {
    try (SnapshotStore store = Stores.open(StoreSettings.embedded(dataDir), clock)) {
      store.append(EnvelopeSealer.because("startup"));
    }

    try (SnapshotStore store = Stores.open(StoreSettings.embedded(dataDir), clock)) {
      assertThat(store.latest()).map(SnapshotEnvelope::getEpoch).contains(1L);
      assertThat(store.append(EnvelopeSealer.because("after restart")).getEpoch()).isEqualTo(2);
    }
  }

  @Test
  void startsDespiteAPidFileLeftByAServerThatIsGoneOrByAReusedPid() throws Exception {
    EmbeddedDatabase.start(dataDir).stop();
    Path pidFile = dataDir.resolve("postmaster.pid");

    Process exited = new ProcessBuilder("true").start();
    exited.waitFor(10, TimeUnit.SECONDS);
    Files.writeString(pidFile, exited.pid() + "\n" + dataDir + "\n");
    EmbeddedDatabase.start(dataDir).stop();

    // After a reboot the pid may belong to an unrelated live process, here this JVM.
    Files.writeString(pidFile, ProcessHandle.current().pid() + "\n" + dataDir + "\n");
    EmbeddedDatabase.start(dataDir).stop();

    assertThat(pidFile).doesNotExist();
  }

  @Test
  void refusesADataDirThatALiveServerOwns() {
    try (EmbeddedDatabase running = EmbeddedDatabase.start(dataDir)) {
      assertThatThrownBy(() -> EmbeddedDatabase.start(dataDir))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("data directory " + dataDir.toAbsolutePath() + " is in use by this process");
      assertThat(running.dataSource()).isNotNull();
    }
  }

  @Test
  void recoversTheDataDirOfAJvmKilledWhileItsServerRan() throws Exception {
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        OrphaningServer.class.getName(), dataDir.toString())
        .redirectErrorStream(true)
        .start();
    Optional<ProcessHandle> orphan = Optional.empty();
    try {
      assertThat(CompletableFuture.supplyAsync(() -> awaitReady(child)).get(90, TimeUnit.SECONDS))
          .as("child JVM said ready").isTrue();
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

      long pid = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
      orphan = ProcessHandle.of(pid);
      assertThat(orphan).get().matches(ProcessHandle::isAlive, "orphaned postmaster still running");

      try (EmbeddedDatabase restarted = EmbeddedDatabase.start(dataDir);
          PostgresSnapshotStore store = PostgresSnapshotStore.open(restarted.jdbcUrl(), EmbeddedDatabase.USER, "", clock)) {
        assertThat(orphan.get().isAlive()).as("orphan stopped").isFalse();
        assertThat(store.latest()).map(e -> e.getProvenance().getCause()).contains("before the crash");
        assertThat(store.append(EnvelopeSealer.because("after recovery")).getEpoch()).isEqualTo(2);
      }
    } finally {
      child.destroyForcibly();
      orphan.filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private static boolean awaitReady(Process child) {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals("ready")) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void blamesMissingBinariesNotRootWhenTheJarCarriesNoneForThisPlatform() {
    // zonky's own refusal, for a platform no jar ships: what a -Dsignalbox.postgres.platform=none build meets.
    Throwable missing = catchThrowable(
        () -> DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Plan9", "mips"));

    assertThat(EmbeddedDatabase.hint(new IOException("wrapped", missing))).isEqualTo(
        ": this build carries no PostgreSQL server binaries for " + System.getProperty("os.name") + " "
            + System.getProperty("os.arch") + " (built for an external PostgreSQL, or for another platform);"
            + " set store.url to a jdbc:postgresql:// URL, or use a build made on this platform");
  }
}
