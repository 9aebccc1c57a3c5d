package io.signalbox.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code java -jar signalbox-bench.jar load|replicas|maglev-churn|jmh|plain-server|floor-server|cds-archive ...} */
@Command(name = "signalbox-bench", mixinStandardHelpOptions = true,
    subcommands = {LoadTool.class, ReplicasTool.class, MaglevChurn.class, BenchMain.Jmh.class, PlainJavaControlPlane.class, FloorAdsServer.class, CdsArchive.class},
    description = "Fleet-scale load tool and JMH benchmarks for Signalbox.")
public final class BenchMain implements Runnable {

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchMain()).execute(args));
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Hands every argument to JMH's own command line ({@code jmh -h} lists its options). */
  @Command(name = "jmh", description = "Run the JMH benchmarks; arguments go to JMH (try: jmh -h).")
  static final class Jmh implements Callable<Integer> {
    @Unmatched String[] args = new String[0];

    @Override
    public Integer call() throws Exception {
      org.openjdk.jmh.Main.main(args);
      return 0;
    }
  }
}
