package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison of a fleet's steady window without and with load reports. */
class LoadReportCostTest {

  private static RunResult run(double cpuMillis, long heapBytes, long sent, long used) {
    RunResult.Steady steady = new RunResult.Steady(60_000, cpuMillis, 100, 600, 1_200, heapBytes, sent, sent * 3, used,
        0, 0, "9.50 8.00 7.25", 250, 180);
    return new RunResult(Scenario.Target.SIGNALBOX, Fleet.Mode.SOTW, 1000, 0, 0, 0, 0, 0, 0, List.of(), steady,
        sent > 0);
  }

  @Test
  void statesTheExtraCpuAsAShareOfOneCoreAndTheExtraHeapPerClient() {
    String table = LoadReportCost.render("title", run(3_000, 200L << 20, 0, 0),
        run(4_800, (200L << 20) + 8 * 1024 * 1000, 6_000, 17_000));

    assertThat(table).isEqualTo("""
        title
          steady window, s                         60.0             60.0
          server CPU, ms                           3000             4800
            of it JIT, ms                           100              100
          server CPU, % of a core                  5.00             8.00   extra +3.00
          + PostgreSQL, % of a core                6.00             9.00   extra +3.00
          server heap after GC, MB                200.0            207.8   extra +8.00 KB per client
          load tool CPU, % of a core               2.00             2.00
          reports sent in the window                  0             6000
          reports sent / used in all              0 / 0    18000 / 17000
          report entries refused                      0                0
          then one /metrics scrape, ms              250              250
            its CPU (+ PostgreSQL), ms              180              180
          LRS / ADS stream errors                     0            0 / 0
          load average at the end        9.50 8.00 7.25   9.50 8.00 7.25
        """);
  }
}
