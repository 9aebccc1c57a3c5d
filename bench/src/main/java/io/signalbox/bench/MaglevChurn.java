package io.signalbox.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How many keys a Maglev cluster remaps when one of its hosts leaves (drained or ejected: it leaves
 * the table), computed with {@link MaglevTable} for each host in turn: the keys that were on the
 * leaving host (they must move) and the keys that move between the hosts that stay (the extra).
 */
@Command(name = "maglev-churn", mixinStandardHelpOptions = true,
    description = "Keys a Maglev table (Envoy's construction) remaps when one host leaves.")
final class MaglevChurn implements Callable<Integer> {

  /** One host leaving: fractions of all keys. */
  record Removal(int host, double remapped, double fromLeaving, double betweenOthers) {}

  @Option(names = "--backends", defaultValue = "10") int backends;
  @Option(names = "--keys", defaultValue = "100000") int keys;
  @Option(names = "--table-size", defaultValue = "65537", description = "M, a prime (Envoy's default 65537)")
  int tableSize;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    List<Removal> removals = removals(backends, keys, tableSize);
    var out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "Maglev, %d hosts, table %d, %d keys (x-user: user-0..%d), one host leaving:%n%n",
        backends, tableSize, keys, keys - 1);
    out.println("| leaving host | keys remapped | of which on the leaving host | moved between the others |");
    out.println("|---|---|---|---|");
    for (Removal r : removals) {
      out.printf(Locale.ROOT, "| %d | %.2f%% | %.2f%% | %.2f%% |%n", r.host(), 100 * r.remapped(),
          100 * r.fromLeaving(), 100 * r.betweenOthers());
    }
    out.flush();
    return 0;
  }

  static List<String> addresses(int backends) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < backends; i++) {
      out.add("10.0.0." + (i + 1) + ":8080");
    }
    return out;
  }

  static List<Removal> removals(int backends, int keys, int tableSize) {
    List<String> all = addresses(backends);
    MaglevTable before = new MaglevTable(all, tableSize);
    int[] owner = new int[keys];
    for (int k = 0; k < keys; k++) {
      owner[k] = before.host("user-" + k);
    }
    List<Removal> out = new ArrayList<>();
    for (int leaving = 0; leaving < backends; leaving++) {
      List<String> rest = new ArrayList<>(all);
      rest.remove(leaving);
      MaglevTable after = new MaglevTable(rest, tableSize);
      int fromLeaving = 0;
      int between = 0;
      for (int k = 0; k < keys; k++) {
        int now = after.host("user-" + k);
        int nowIndex = now < leaving ? now : now + 1; // back to an index in 'all'
        if (owner[k] == leaving) {
          fromLeaving++;
        } else if (nowIndex != owner[k]) {
          between++;
        }
      }
      out.add(new Removal(leaving, (fromLeaving + between) / (double) keys, fromLeaving / (double) keys,
          between / (double) keys));
    }
    return out;
  }
}
