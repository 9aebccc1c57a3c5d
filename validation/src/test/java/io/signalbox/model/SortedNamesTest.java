package io.signalbox.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SortedNamesTest {

  private static final String[] NAMES = {"api", "orders", "web"};

  @Test
  void findsANameAtItsUsualPlaceOrBySearch() {
    assertThat(SortedNames.indexOf(NAMES, 1, "orders")).isEqualTo(1);
    assertThat(SortedNames.indexOf(NAMES, 0, "web")).as("shifted: a cluster came or went").isEqualTo(2);
    assertThat(SortedNames.indexOf(NAMES, 7, "api")).as("past the end").isZero();
  }

  @Test
  void aNameThatIsNotThereIsNegative() {
    assertThat(SortedNames.indexOf(NAMES, 1, "billing")).isNegative();
    assertThat(SortedNames.indexOf(new String[0], 0, "api")).isNegative();
  }
}
