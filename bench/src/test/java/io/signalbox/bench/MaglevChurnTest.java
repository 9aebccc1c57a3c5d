package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The Maglev table the churn figure in docs/traffic-policy.md comes from. */
class MaglevChurnTest {

  @Test
  void hashesWithXxh64AsEnvoyDoes() {
    // XXH64's published values for the empty input and for "a", seed 0.
    assertThat(MaglevTable.hash("", 0)).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(MaglevTable.hash("a", 0)).isEqualTo(0xD24EC4F1A98C6E5BL);
  }

  @Test
  void hostsTakingTurnsHoldEqualSharesOfTheTableWithinOneSlot() {
    int[] slots = new MaglevTable(MaglevChurn.addresses(10), 65537).slots(10);
    assertThat(Arrays.stream(slots).sum()).isEqualTo(65537);
    assertThat(Arrays.stream(slots).max().getAsInt() - Arrays.stream(slots).min().getAsInt()).isLessThanOrEqualTo(1);
  }

  @Test
  void aLeavingHostMovesItsOwnKeysAndFewOthers() {
    for (MaglevChurn.Removal r : MaglevChurn.removals(10, 20_000, 65537)) {
      assertThat(r.fromLeaving()).as("host %d's share", r.host()).isBetween(0.08, 0.12);
      assertThat(r.betweenOthers()).as("moved between the others when %d leaves", r.host()).isLessThan(0.02);
      assertThat(r.remapped()).isCloseTo(r.fromLeaving() + r.betweenOthers(), org.assertj.core.data.Offset.offset(1e-9));
    }
  }
}
