package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.validation.CorrelatedErrors.Correlated;
import io.signalbox.validation.CorrelatedErrors.Finished;
import io.signalbox.validation.CorrelatedErrors.Uncorrelated;
import java.util.List;
import org.junit.jupiter.api.Test;

class CorrelatedErrorsTest {

  @Test
  void raisesWhenThreeOfFourLocalitiesErrAtOnceWithAnExactMessage() {
    var verdict = CorrelatedErrors.of("web", "localities", List.of(new Finished("a", 90, 10),
        new Finished("b", 80, 20), new Finished("c", 100, 0), new Finished("d", 50, 50)));

    assertThat(verdict).isEqualTo(new Correlated(4, List.of("a", "b", "d"), "cluster 'web': 3 of 4 localities "
        + "reporting at least 10 finished requests err above 5 % at once (a, b, d): look for a cause they share "
        + "before ejecting them [load.correlated-errors]"));
  }

  @Test
  void twoOfFourIsAnOutlierNotACorrelation() {
    var verdict = CorrelatedErrors.of("web", "localities", List.of(new Finished("a", 90, 10),
        new Finished("b", 80, 20), new Finished("c", 100, 0), new Finished("d", 100, 0)));

    assertThat(verdict).isEqualTo(new Uncorrelated(4, List.of("a", "b"), "cluster 'web': 2 of 4 localities "
        + "reporting at least 10 finished requests err above 5 %, fewer than 75 %"));
  }

  @Test
  void fiveErrorsInAHundredIsNotAboveFivePercent() {
    var verdict = CorrelatedErrors.of("web", "endpoints", List.of(new Finished("a", 95, 5),
        new Finished("b", 95, 5), new Finished("c", 94, 6)));

    assertThat(verdict.raised()).containsExactly("c");
    assertThat(verdict).isInstanceOf(Uncorrelated.class);
  }

  @Test
  void placesWithTooFewFinishedRequestsAreNotCounted() {
    // Every place errs, but only two finished ten requests: too few to call it correlated.
    var verdict = CorrelatedErrors.of("web", "localities", List.of(new Finished("a", 0, 10),
        new Finished("b", 0, 10), new Finished("c", 0, 9), new Finished("d", 0, 0)));

    assertThat(verdict).isEqualTo(new Uncorrelated(2, List.of("a", "b"), "cluster 'web': 2 of 2 localities "
        + "reporting at least 10 finished requests err above 5 %; fewer than 3 localities cannot show correlated "
        + "errors"));
  }

  @Test
  void exactlyThreeOfFourIsEnoughAndEveryOneOfThreeIsToo() {
    assertThat(CorrelatedErrors.of("web", "localities", List.of(new Finished("a", 0, 10), new Finished("b", 0, 10),
        new Finished("c", 0, 10)))).isInstanceOf(Correlated.class);
    assertThat(CorrelatedErrors.of("web", "localities", List.of(new Finished("a", 0, 10), new Finished("b", 0, 10),
        new Finished("c", 10, 0)))).isInstanceOf(Uncorrelated.class);
  }

  @Test
  void negativeCountsAreABugOfTheCaller() {
    assertThatThrownBy(() -> new Finished("a", -1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("negative count for a: succeeded -1, errored 0");
  }
}
