package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rounds' summary: each ratio round by round and the median a verdict is read from. */
class ResultTableTest {

  /** One target's run with a warm phase of one change: this CPU per change, every client at this latency. */
  private static RunResult run(Scenario.Target target, double cpu, double database, double latency) {
    RunResult.ChangeResult change = new RunResult.ChangeResult(0, new double[] {latency, latency}, 0,
        new long[] {500, 500}, new long[] {1, 1}, new long[] {1, 1}, 2);
    RunResult.Phase warm = new RunResult.Phase("warm", List.of(change), cpu, 0, database, 0, -1);
    return new RunResult(target, Fleet.Mode.DELTA, 2, 0, 0, 0, 0, 0, 0, List.of(warm));
  }

  private static List<RunResult> round(double signalboxCpu, double signalboxDatabase, double carefulCpu) {
    return List.of(run(Scenario.Target.SIGNALBOX, signalboxCpu, signalboxDatabase, 30),
        run(Scenario.Target.CAREFUL, carefulCpu, 0, 40));
  }

  @Test
  void printsEachRoundsRatioAndTheirMedian() {
    String summary = ResultTable.summary(List.of(round(45, 5, 100), round(90, 0, 100), round(60, 10, 100)));

    assertThat(summary).startsWith("sb/careful over 3 rounds, round by round, then the median\nwarm phase\n");
    assertThat(summary).contains("  server + PostgreSQL CPU ms/change    0.50   0.90   0.70   median 0.70\n");
    assertThat(summary).contains("  server CPU ms/change                 0.45   0.90   0.60   median 0.60\n");
    assertThat(summary).contains("  change p99 (ms)                      0.75   0.75   0.75   median 0.75\n");
    assertThat(summary).doesNotContain("cold phase");
  }

  @Test
  void anEvenCountsMedianIsTheMeanOfTheMiddleTwo() {
    assertThat(ResultTable.median(new double[] {0.9, 0.5, Double.NaN, 0.7, 0.6})).isCloseTo(0.65, within(1e-9));
    assertThat(ResultTable.median(new double[] {Double.NaN})).isNaN();
  }

  @Test
  void printsNothingForOneRoundOrOneTarget() {
    assertThat(ResultTable.summary(List.of(round(45, 5, 100)))).isEmpty();
    assertThat(ResultTable.summary(List.of(List.of(run(Scenario.Target.SIGNALBOX, 1, 0, 1)),
        List.of(run(Scenario.Target.SIGNALBOX, 1, 0, 1))))).isEmpty();
  }
}
