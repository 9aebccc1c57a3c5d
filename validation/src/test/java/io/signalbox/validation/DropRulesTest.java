package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class DropRulesTest {

  @Test
  void acceptsAShareUpToFourDecimalsExactlyInPartsPerMillion() {
    assertThat(DropRules.share("web", new BigDecimal("50"), false)).isEqualTo(new DropRules.Accepted(500_000));
    assertThat(DropRules.share("web", new BigDecimal("0.0001"), false)).isEqualTo(new DropRules.Accepted(1));
    assertThat(DropRules.share("web", new BigDecimal("12.3400"), false)).isEqualTo(new DropRules.Accepted(123_400));
  }

  @Test
  void refusesASharePastTheRangeOrFinerThanXdsCarries() {
    assertThat(DropRules.share("web", BigDecimal.ZERO, false)).isEqualTo(new DropRules.Refused("bad_percent",
        "percent must be a share of calls in (0, 100] with at most 4 decimals, was 0"));
    assertThat(DropRules.share("web", new BigDecimal("100.5"), true)).isEqualTo(new DropRules.Refused("bad_percent",
        "percent must be a share of calls in (0, 100] with at most 4 decimals, was 100.5"));
    assertThat(DropRules.share("web", new BigDecimal("0.00001"), false)).isEqualTo(new DropRules.Refused(
        "bad_percent", "percent must be a share of calls in (0, 100] with at most 4 decimals (xDS carries parts per "
            + "million), was 0.00001"));
    assertThat(DropRules.share("web", null, false)).isEqualTo(new DropRules.Refused("bad_percent",
        "percent is required: a share of calls in (0, 100] with at most 4 decimals"));
  }

  @Test
  void refusesDroppingEveryCallUnlessForced() {
    assertThat(DropRules.share("web", new BigDecimal("100"), false)).isEqualTo(new DropRules.Refused("drop_all",
        "a drop of 100% fails every call to cluster 'web'; say --force (\"force\": true) if that is meant"));
    assertThat(DropRules.share("web", new BigDecimal("100"), true)).isEqualTo(new DropRules.Accepted(1_000_000));
  }

  @Test
  void namesACategoryWithPlainCharacters() {
    assertThat(DropRules.categoryProblem("signalbox_operator")).isNull();
    assertThat(DropRules.categoryProblem("batch jobs"))
        .isEqualTo("category may contain only letters, digits and . _ - (1 to 64 of them), was 'batch jobs'");
  }

  @Test
  void showsAShareAsTheOperatorTypedIt() {
    assertThat(DropRules.percent(500_000)).isEqualTo("50");
    assertThat(DropRules.percent(1)).isEqualTo("0.0001");
    assertThat(DropRules.percent(1_000_000)).isEqualTo("100");
  }
}
