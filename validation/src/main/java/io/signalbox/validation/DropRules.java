package io.signalbox.validation;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What an operator's drop (EDS {@code drop_overloads}, {@code signalbox shed}) may be. One place,
 * so the API and the CLI refuse the same shares and categories with the same words.
 *
 * <p>A share is sent as a {@code FractionalPercent} with denominator MILLION: the finest xDS
 * carries, so a percentage with up to four decimals is sent exactly and nothing is rounded.
 */
public final class DropRules {

  /** The category of an operator's drop when none is named; a dropped call fails "Dropped: signalbox_operator". */
  public static final String DEFAULT_CATEGORY = "signalbox_operator";

  /** What a {@code percent} must be, for messages and the API's field description. */
  public static final String PERCENT_RANGE = "a share of calls in (0, 100] with at most 4 decimals";

  private static final Pattern CATEGORY = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private DropRules() {}

  /** The verdict on a requested drop. */
  public sealed interface Verdict permits Accepted, Refused {}

  /** @param perMillion the share in parts per million, as sent */
  public record Accepted(int perMillion) implements Verdict {}

  /** @param code the API's error code */
  public record Refused(String code, String message) implements Verdict {}

  /**
   * @param percent the share asked for, or null
   * @param force whether the operator said a drop of 100 % is meant: it fails every call of the
   *     cluster, which is almost never what shedding is for
   */
  public static Verdict share(String cluster, BigDecimal percent, boolean force) {
    if (percent == null) {
      return new Refused("bad_percent", "percent is required: " + PERCENT_RANGE);
    }
    String shown = percent.stripTrailingZeros().toPlainString();
    if (percent.signum() <= 0 || percent.compareTo(HUNDRED) > 0) {
      return new Refused("bad_percent", "percent must be " + PERCENT_RANGE + ", was " + shown);
    }
    if (percent.stripTrailingZeros().scale() > 4) {
      return new Refused("bad_percent", "percent must be " + PERCENT_RANGE + " (xDS carries parts per million), was "
          + shown);
    }
    if (percent.compareTo(HUNDRED) == 0 && !force) {
      return new Refused("drop_all", "a drop of 100% fails every call to cluster '" + cluster
          + "'; say --force (\"force\": true) if that is meant");
    }
    return new Accepted(percent.movePointRight(4).intValueExact());
  }

  /** Null when {@code category} may name a drop; otherwise why not. */
  public static String categoryProblem(String category) {
    if (category == null || !CATEGORY.matcher(category).matches()) {
      return "category may contain only letters, digits and . _ - (1 to 64 of them), was "
          + (category == null ? "nothing" : "'" + category + "'");
    }
    return null;
  }

  /** {@code perMillion} as the percentage an operator typed: 500000 -> "50", 1 -> "0.0001". */
  public static String percent(int perMillion) {
    return BigDecimal.valueOf(perMillion).movePointLeft(4).stripTrailingZeros().toPlainString();
  }

  /**
   * The category a client that honours only one is sent (Envoy NACKs an assignment with more than
   * one, issue 31): the largest share, the first of equal ones. Sending the largest keeps the drop
   * such a client applies the closest to what the others apply, and never above what any one
   * category asks; empty when the policy has no drop.
   */
  public static Optional<ClusterLoadAssignment.Policy.DropOverload> largest(ClusterLoadAssignment.Policy policy) {
    ClusterLoadAssignment.Policy.DropOverload best = null;
    for (ClusterLoadAssignment.Policy.DropOverload d : policy.getDropOverloadsList()) {
      if (best == null || perMillion(d.getDropPercentage()) > perMillion(best.getDropPercentage())) {
        best = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** A share as parts per million, whatever its denominator. */
  public static long perMillion(FractionalPercent share) {
    long n = share.getNumerator();
    return switch (share.getDenominator()) {
      case HUNDRED -> n * 10_000;
      case TEN_THOUSAND -> n * 100;
      default -> n;
    };
  }
}
