package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The replicas measurement end to end at small scale, against the Signalbox jar the reactor
 * packaged: two replicas on one embedded PostgreSQL, clients on both, every change reaching every
 * client, the table naming one leader. Correctness only, never speed.
 */
class ReplicasToolSmokeIT {

  @TempDir
  Path workDir;

  @Test
  void everyClientOfEitherReplicaHoldsEveryChangeAndOneReplicaLeads() {
    String jar = System.getProperty("signalbox.jar", "../control-plane/target/signalbox.jar");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = new CommandLine(new ReplicasTool()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute("--replicas", "2", "--clients", "10", "--clusters", "5", "--endpoints", "3", "--warmup-changes", "1",
            "--changes", "2", "--lease", "3s", "--renew", "500ms", "--server-jvm-opts", "-Xmx384m",
            "--signalbox-jar", jar, "--work-dir", workDir.toString(), "--timeout", "PT30S");

    assertThat(exit).as(out + "\n" + err).isZero();
    assertThat(out.toString()).containsOnlyOnce("| leader |").contains("| follower |")
        .contains("0 client-changes unconverged");
  }
}
