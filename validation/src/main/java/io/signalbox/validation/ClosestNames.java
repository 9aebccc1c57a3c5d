package io.signalbox.validation;

import io.signalbox.validation.EditDistance;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** "Did you mean": the known names closest to a mistyped one, by edit distance. */
public final class ClosestNames {
  private ClosestNames() {}

  private record Candidate(String name, int distance) {}

  /** The known names nearest to {@code wanted} (all equally near), if any is near enough. */
  static List<String> to(String wanted, Collection<String> known, int limit) {
    int cutoff = Math.max(2, wanted.length() / 3);
    List<Candidate> near = known.stream()
        .map(k -> new Candidate(k, EditDistance.between(wanted, k)))
        .filter(c -> c.distance() <= cutoff)
        .sorted(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::name))
        .toList();
    if (near.isEmpty()) {
      return List.of();
    }
    int best = near.get(0).distance();
    return near.stream().filter(c -> c.distance() == best).limit(limit).map(Candidate::name).toList();
  }

  /** {@code ; did you mean 'a' or 'b'?}, or empty when nothing is close. */
  public static String hint(String wanted, Collection<String> known) {
    List<String> close = to(wanted, known, 3);
    if (close.isEmpty()) {
      return "";
    }
    return "; did you mean " + String.join(" or ", close.stream().map(n -> "'" + n + "'").toList()) + "?";
  }
}
