package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TypeResourcesTest {

  /** Every client's changed-only answer walks these in name order without sorting them itself. */
  @Test
  void changedNamesIterateInNameOrderWhateverSetTheyCameIn() {
    var given = new LinkedHashSet<>(List.of("c19", "c07", "b", "c100"));

    TypeResources resources = new TypeResources(XdsType.ENDPOINT, 3, Map.of(), given);

    assertThat(resources.changedSinceParent()).containsExactly("b", "c07", "c100", "c19");
    // Still equal to any set of the same names, as callers compare them.
    assertThat(Set.of("b", "c07", "c100", "c19").equals(resources.changedSinceParent())).isTrue();
    assertThat(resources.changedSinceParent().equals(Set.of("b", "c07", "c100", "c19"))).isTrue();
    assertThatThrownBy(() -> resources.changedSinceParent().add("d")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void unknownChangesStayUnknown() {
    assertThat(new TypeResources(XdsType.ENDPOINT, 3, Map.of()).changedSinceParent()).isNull();
  }
}
