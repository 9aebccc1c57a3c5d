package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code signalbox shed CLUSTER --percent P}: clients of the cluster drop that share of their calls
 * (EDS {@code drop_overloads}) instead of piling it onto the endpoints that are left.
 */
@Command(name = "shed", mixinStandardHelpOptions = true,
    description = "Make clients of a cluster drop a share of their calls (EDS drop_overloads; a dropped call fails "
        + "UNAVAILABLE \"Dropped: <category>\"), until 'signalbox unshed'.")
public final class ShedCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Option(names = "--percent", paramLabel = "P", required = true,
      description = "The share of calls to drop, in (0, 100], at most 4 decimals; 100 needs --force.")
  BigDecimal percent;

  @Option(names = "--category", paramLabel = "C",
      description = "The drop's category, named in every dropped call (default: signalbox_operator).")
  String category;

  // Descriptions go through String.format: a bare % made picocli print a WARN line before the help.
  @Option(names = "--force", description = "Mean it when dropping 100%% of the calls.")
  boolean force;

  @Mixin Reason reason;

  @Override
  public Integer call() {
    Map<String, Object> body = reason.body();
    body.put("percent", percent);
    if (category != null) {
      body.put("category", category);
    }
    if (force) {
      body.put("force", true);
    }
    JsonNode answer = options.client().post("/api/v1/clusters/" + AdminClient.segment(cluster) + "/shed", body);
    if (options.json()) {
      options.print(answer);
      return 0;
    }
    options.println("shedding: clients of " + cluster + " drop " + Json.text(answer, "percent") + "% of calls as "
        + Json.text(answer, "category") + ", until 'signalbox unshed " + cluster + "'");
    if (answer.path("note").isTextual()) {
      options.println(answer.path("note").asText());
    }
    return 0;
  }

  /** {@code signalbox unshed CLUSTER}: lift the operator's drops of a cluster. */
  @Command(name = "unshed", mixinStandardHelpOptions = true,
      description = "Lift the operator's drops of a cluster (only one category's with --category).")
  public static final class Unshed implements Callable<Integer> {

    @Mixin ClientOptions options;

    @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
    String cluster;

    @Option(names = "--category", paramLabel = "C", description = "Lift only this category's drop.")
    String category;

    @Override
    public Integer call() {
      // A DELETE carries neither body nor query: one category is named in the path.
      JsonNode answer = options.client().delete("/api/v1/clusters/" + AdminClient.segment(cluster) + "/shed"
          + (category == null ? "" : "/" + AdminClient.segment(category)));
      if (options.json()) {
        options.print(answer);
      } else {
        options.println("unshed: clients of " + cluster + " drop no calls for the operator any more ("
            + Json.text(answer, "lifted") + " lifted)");
      }
      return 0;
    }
  }
}
