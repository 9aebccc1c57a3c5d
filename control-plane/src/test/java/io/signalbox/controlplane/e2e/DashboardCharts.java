package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What a dashboard chart shows, read in the browser: the series it was given ({@code Charts.shown}
 * in charts.js) and what uPlot put in the DOM for them (legend rows, their labels and colour marks).
 * The data is compared with the API by the tests; the DOM is what holds each series to a legend
 * entry, a visible label and a colour of its own.
 */
final class DashboardCharts {

  private DashboardCharts() {}

  @SuppressWarnings("unchecked")
  private static List<String> strings(ChromeDriver browser, String js, Object... args) {
    Object result = browser.executeScript(js, args);
    return result == null ? List.of() : new ArrayList<>((List<String>) result);
  }

  /** The names of the series the chart was given, in order; empty before it is drawn. */
  static List<String> series(ChromeDriver browser, String chart) {
    return strings(browser, "const c = Charts.shown[arguments[0]]; return c ? c.series.map(s => s.name) : []", chart);
  }

  /** One series' points as {@code x value}: the x key (a time or an epoch) and the value, oldest first. */
  static List<String> points(ChromeDriver browser, String chart, String series) {
    return strings(browser, "const c = Charts.shown[arguments[0]]; if (!c) return [];"
        + " const s = c.series.find(s => s.name === arguments[1]); if (!s) return [];"
        + " return s.values.map((v, i) => c.x[i] + ' ' + v)", chart, series).stream()
        .filter(p -> !p.endsWith(" null")).map(DashboardPanelsIT::normalized).toList();
  }

  /** The legend's series rows as uPlot drew them: {@code name|label text|marker colour|visible}. */
  static List<String> legend(ChromeDriver browser, String chart) {
    return strings(browser, "return Array.from(document.querySelectorAll('#' + arguments[0]"
        + " + ' .u-legend tr.u-series')).slice(1).map(tr => {"
        + "  const label = tr.querySelector('.u-label'); const marker = tr.querySelector('.u-marker');"
        + "  const box = document.getElementById(arguments[0]).getBoundingClientRect();"
        + "  const r = label ? label.getBoundingClientRect() : null;"
        + "  const inside = r !== null && r.width > 0 && r.left >= box.left && r.right <= box.right + 0.5;"
        + "  return tr.dataset.series + '|' + (label ? label.textContent : '') + '|'"
        + "    + (marker ? getComputedStyle(marker).borderLeftColor : '') + '|' + inside; })", chart);
  }

  /**
   * Every series the chart was given has exactly one legend row, labelled with its name, visible
   * inside the chart's box, and marked with a colour no other series of the chart has.
   */
  static void assertEverySeriesLabelled(ChromeDriver browser, String chart) {
    List<String> names = series(browser, chart);
    assertThat(names).as("series of #%s", chart).isNotEmpty();
    List<String> rows = legend(browser, chart);
    assertThat(rows.stream().map(r -> r.split("\\|")[0]).toList()).as("legend rows of #%s", chart)
        .containsExactlyElementsOf(names);
    List<String> colours = new ArrayList<>();
    for (String row : rows) {
      String[] parts = row.split("\\|");
      assertThat(parts[1]).as("label of %s in #%s", parts[0], chart).isEqualTo(parts[0]);
      assertThat(parts[3]).as("label of %s in #%s drawn inside the chart", parts[0], chart).isEqualTo("true");
      assertThat(parts[2]).as("colour of %s in #%s", parts[0], chart).isNotBlank().isNotEqualTo("rgba(0, 0, 0, 0)");
      colours.add(parts[2]);
    }
    assertThat(colours).as("colours of #%s", chart).doesNotHaveDuplicates();
  }

  /** The chart's y-axis tick labels, as uPlot computed them (canvas text, so read from the plot). */
  static List<String> yTicks(ChromeDriver browser, String chart) {
    return strings(browser, "const u = Charts.plots[arguments[0]].u; return u.axes[1]._values.map(String)", chart);
  }

  /** Moves a synthetic cursor to the plot's left edge; returns the index uPlot picked and the legend's x text. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> hoverFirst(ChromeDriver browser, String chart) {
    return (Map<String, Object>) browser.executeScript("const u = Charts.plots[arguments[0]].u;"
        + " u.setCursor({ left: u.valToPos(u.data[0][0], 'x'), top: 10 });"
        + " const first = Charts.shown[arguments[0]].x[0];"
        + " return { idx: u.cursor.idx, shown: u.root.querySelector('.u-legend tr.u-series .u-value').textContent,"
        + "   expected: new Date(first).toLocaleTimeString('en-GB') }", chart);
  }
}
