package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void padsEveryColumnButTheLastToItsWidestCellPlusTwoSpaces() {
    Table table = new Table(List.of("EPOCH", "STATUS", "REASON"), List.of(
        Table.cells(142, "ACTIVE", ""),
        Table.cells(9, "REJECTED", "NACKed by 3 clients")));

    assertThat(table.render()).isEqualTo("""
        EPOCH  STATUS    REASON
        142    ACTIVE
        9      REJECTED  NACKed by 3 clients
        """);
  }

  @Test
  void aHeaderOfBlanksIsAKeyValueListWithoutAHeaderLine() {
    Table table = new Table(List.of("", ""), List.of(Table.cells("epoch", 42), Table.cells("last safe epoch", null)));

    assertThat(table.render()).isEqualTo("""
        epoch            42
        last safe epoch
        """);
  }

  @Test
  void anEmptyTableIsItsHeader() {
    assertThat(new Table(List.of("NODE", "GROUP"), List.of()).render()).isEqualTo("NODE  GROUP\n");
  }

  @Test
  void refusesARowOfTheWrongWidth() {
    assertThatThrownBy(() -> new Table(List.of("A", "B"), List.of(Table.cells("x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("row [x] has 1 cells, header 2");
  }
}
