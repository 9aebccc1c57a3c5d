package io.signalbox.source.file;

import io.signalbox.model.EndpointSpec;
import io.signalbox.yaml.Parsed;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads successive versions of one endpoint file, re-reading only the clusters whose text changed:
 * a one-endpoint edit of a 10,000-cluster file (8 MB of YAML, ~1.7 s to read whole) costs one
 * cluster's read plus a comparison of the text with the last version's.
 *
 * <p>Every result is what {@link EndpointFile#parse} of the whole text returns (equal maps, in the
 * same order, or the same violations), which {@code IncrementalEndpointFileTest} checks against a
 * fresh whole read for generated files and edits. To keep that simple:
 *
 * <ul>
 *   <li>the file is cut into per-cluster blocks only in the plain layout ({@link ClusterBlocks});
 *       anything else is read whole;
 *   <li>a changed block is read alone, and any problem in it (or a cluster named twice) makes the
 *       whole file be read instead, so an invalid file is reported exactly as a whole read reports
 *       it, with its lines and columns;
 *   <li>when more than half of the blocks changed, reading the whole file is cheaper.
 * </ul>
 *
 * <p>A cluster whose endpoints did not change keeps the list instance the previous read returned,
 * whichever way the file was read, so the reconciler's per-cluster memos skip it by identity.
 *
 * <p>Not thread-safe: one instance per file, used by the thread that delivers its versions. It
 * keeps the last clean version's text (one copy of the file).
 */
public final class IncrementalEndpointFile {

  /** How the last {@link #read} went: whole, or by blocks with this many read again. */
  public record LastRead(boolean whole, int blocks, int blocksRead) {}

  private record Known(int start, int end, String cluster, List<EndpointSpec> endpoints) {}

  private static final String HEADER = "clusters:\n";

  private final String sourceName;
  // The last version that read cleanly and was cut into blocks, with its blocks by key.
  private String knownText;
  private Map<String, Known> known = Map.of();
  // The last clean read's clusters, so that equal lists keep their instances after a whole read.
  private Map<String, List<EndpointSpec>> lastClusters = Map.of();
  private LastRead lastRead = new LastRead(true, 0, 0);

  /** @param sourceName the file's path, as {@link EndpointFile#parse} takes it */
  public IncrementalEndpointFile(String sourceName) {
    this.sourceName = sourceName;
  }

  /** The file's clusters in file order, or every problem found, as {@link EndpointFile#parse} returns them. */
  public Parsed<Map<String, List<EndpointSpec>>> read(String text) {
    Optional<ClusterBlocks> cut = ClusterBlocks.of(text);
    if (cut.isPresent() && knownText != null) {
      Optional<Map<String, List<EndpointSpec>>> byBlocks = readChangedBlocks(text, cut.get());
      if (byBlocks.isPresent()) {
        lastClusters = byBlocks.get();
        return Parsed.ok(byBlocks.get());
      }
    }
    return readWhole(text, cut);
  }

  /** For tests and benchmarks. */
  public LastRead lastRead() {
    return lastRead;
  }

  private Optional<Map<String, List<EndpointSpec>>> readChangedBlocks(String text, ClusterBlocks cut) {
    List<ClusterBlocks.Block> blocks = cut.blocks();
    int budget = blocks.size() / 2;
    int read = 0;
    Map<String, Known> next = new HashMap<>(blocks.size() * 2);
    Map<String, List<EndpointSpec>> clusters = new LinkedHashMap<>(blocks.size() * 2);
    for (ClusterBlocks.Block block : blocks) {
      Known before = known.get(block.key());
      String cluster;
      List<EndpointSpec> endpoints;
      if (before != null && before.end() - before.start() == block.length()
          && text.regionMatches(block.start(), knownText, before.start(), block.length())) {
        cluster = before.cluster();
        endpoints = before.endpoints();
      } else {
        if (++read > budget) {
          return Optional.empty();
        }
        Parsed<Map<String, List<EndpointSpec>>> alone =
            EndpointFile.parse(HEADER + text.substring(block.start(), block.end()), sourceName);
        if (!(alone instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok) || ok.value().size() != 1) {
          return Optional.empty(); // the whole read reports it, with the file's own lines
        }
        Map.Entry<String, List<EndpointSpec>> only = ok.value().entrySet().iterator().next();
        cluster = only.getKey();
        endpoints = sameIfEqual(lastClusters.get(cluster), only.getValue());
      }
      if (next.putIfAbsent(block.key(), new Known(block.start(), block.end(), cluster, endpoints)) != null
          || clusters.putIfAbsent(cluster, endpoints) != null) {
        return Optional.empty(); // a cluster named twice: the whole read reports the duplicate key
      }
    }
    knownText = text;
    known = next;
    lastRead = new LastRead(false, blocks.size(), read);
    return Optional.of(clusters);
  }

  private Parsed<Map<String, List<EndpointSpec>>> readWhole(String text, Optional<ClusterBlocks> cut) {
    Parsed<Map<String, List<EndpointSpec>>> parsed = EndpointFile.parse(text, sourceName);
    lastRead = new LastRead(true, cut.map(c -> c.blocks().size()).orElse(0), 0);
    if (!(parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok)) {
      return parsed; // what is known stays: it is still the last clean version
    }
    Map<String, List<EndpointSpec>> clusters = new LinkedHashMap<>(ok.value().size() * 2);
    ok.value().forEach((cluster, endpoints) -> clusters.put(cluster, sameIfEqual(lastClusters.get(cluster), endpoints)));
    lastClusters = clusters;
    remember(text, cut, clusters);
    return Parsed.ok(clusters);
  }

  /**
   * Remembers a clean whole read block by block, when its blocks are exactly its clusters (a plain
   * key reads as its own text); otherwise the next version is read whole too.
   */
  private void remember(String text, Optional<ClusterBlocks> cut, Map<String, List<EndpointSpec>> clusters) {
    knownText = null;
    known = Map.of();
    if (cut.isEmpty() || cut.get().blocks().size() != clusters.size()) {
      return;
    }
    Map<String, Known> next = new HashMap<>(clusters.size() * 2);
    for (ClusterBlocks.Block block : cut.get().blocks()) {
      List<EndpointSpec> endpoints = clusters.get(block.key());
      if (endpoints == null || next.put(block.key(), new Known(block.start(), block.end(), block.key(), endpoints)) != null) {
        return;
      }
    }
    knownText = text;
    known = next;
  }

  private static List<EndpointSpec> sameIfEqual(List<EndpointSpec> before, List<EndpointSpec> now) {
    return before != null && before.equals(now) ? before : now;
  }
}
