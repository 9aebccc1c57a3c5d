package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.validation.DrainProgress.Basis;
import io.signalbox.validation.DrainProgress.ClientLoad;
import io.signalbox.validation.DrainProgress.Drain;
import io.signalbox.validation.DrainProgress.Holder;
import io.signalbox.validation.DrainProgress.Idle;
import io.signalbox.validation.DrainProgress.InFlight;
import io.signalbox.validation.DrainProgress.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class DrainProgressPropertiesTest {

  private static final Instant T0 = Instant.parse("2026-12-04T05:00:00Z");
  private static final Instant DEADLINE = T0.plusSeconds(30);

  @Property(tries = 1000, seed = "42")
  void neverSafeWhileAReportingClientShowsWorkBeforeTheDeadline(@ForAll("holders") List<Holder> holders,
      @ForAll @IntRange(min = 0, max = 29_999) int nowMillis) {
    Verdict v = DrainProgress.judge(new Drain(3L, holders, DEADLINE, true, Duration.ofSeconds(1), T0.plusMillis(nowMillis)));

    if (holders.stream().anyMatch(h -> h.load() instanceof InFlight)) {
      assertThat(v.safe()).as(v.reason()).isFalse();
    }
  }

  @Property(tries = 1000, seed = "42")
  void safeOnlyWithEveryAckAndEitherIdleEvidenceOrThePassedDeadline(@ForAll("holders") List<Holder> holders,
      @ForAll @IntRange(min = 0, max = 60_000) int nowMillis) {
    Instant now = T0.plusMillis(nowMillis);
    Verdict v = DrainProgress.judge(new Drain(3L, holders, DEADLINE, true, Duration.ofSeconds(1), now));

    if (v.safe()) {
      assertThat(holders).allMatch(Holder::acked);
      if (v.basis() == Basis.IDLE) {
        assertThat(holders).isNotEmpty().allMatch(h -> h.load() instanceof Idle i
            && Duration.between(i.since(), i.reportedAt()).compareTo(Duration.ofSeconds(1)) >= 0
            && !i.reportedAt().isBefore(h.ackedAt()));
      } else {
        assertThat(now).isAfterOrEqualTo(DEADLINE);
      }
    }
    assertThat(v.acked().size() + v.notAcked().size()).isEqualTo(holders.size());
    assertThat(v.idle().size() + v.inFlight().size() + v.silent().size()).isEqualTo(holders.size());
  }

  @Provide
  Arbitrary<List<Holder>> holders() {
    Arbitrary<ClientLoad> load = Arbitraries.oneOf(
        Arbitraries.just(DrainProgress.SILENT),
        Combinators.combine(Arbitraries.longs().between(1, 5), Arbitraries.integers().between(0, 60_000))
            .as((n, at) -> (ClientLoad) new InFlight(n, T0.plusMillis(at))),
        Combinators.combine(Arbitraries.integers().between(0, 60_000), Arbitraries.integers().between(0, 5_000))
            .as((since, lasted) -> (ClientLoad) new Idle(T0.plusMillis(since), T0.plusMillis(since + lasted))));
    Arbitrary<Holder> holder = Combinators.combine(Arbitraries.strings().alpha().ofLength(3),
            Arbitraries.of(true, true, true, false), Arbitraries.integers().between(0, 40_000), load)
        .as((name, acked, ackedAt, l) -> new Holder(name, acked, T0.plusMillis(ackedAt), l));
    return holder.list().ofMaxSize(5);
  }
}
