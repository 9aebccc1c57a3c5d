package io.signalbox.controlplane.fleet;

import io.signalbox.store.StreamEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node's streams over time, from the stream history: each response it was sent with its answer
 * (ACK, NACK with the client's message, or none yet), stream by stream. What
 * {@code GET /api/v1/clients/{id}/history} and {@code signalbox history <client>} show.
 *
 * @param truncated whether older events within {@code since} were left out ({@link #LIMIT})
 */
public record ClientHistory(String nodeId, Instant since, String type, boolean truncated, List<Stream> streams) {

  /** The most events one answer reads: a day of a busy client, not the table. */
  public static final int LIMIT = 10_000;

  /**
   * @param closedAt when the stream closed, or null while it is open (or closed after the window)
   */
  public record Stream(String replicaId, long streamId, Instant firstSeen, Instant closedAt, List<Response> responses) {}

  /**
   * One response and what the client said of it. The protocol allows one response per type in
   * flight, so a type's next ACK or NACK answers its last response.
   *
   * @param sentAt null when the response was sent before the window
   * @param answer {@code ACK}, {@code NACK}, or null while unanswered (or never: the stream closed)
   * @param message the NACK's message, empty otherwise
   * @param resources the resources the NACK may have refused
   */
  public record Response(String type, long epoch, String version, Instant sentAt, String answer, Instant answeredAt,
      String message, List<String> resources) {

    Response answered(StreamEvent e) {
      return new Response(type, epoch, version, sentAt, e.kind().name(), e.at(), e.message(), e.resources());
    }
  }

  /** @param events the node's events, oldest first, as {@code StreamHistory#ofNode} returns them */
  public static ClientHistory of(String nodeId, Instant since, String type, List<StreamEvent> events) {
    Map<String, List<Response>> responses = new LinkedHashMap<>();
    Map<String, Instant> first = new HashMap<>();
    Map<String, Instant> closed = new HashMap<>();
    Map<String, StreamEvent> anyOf = new HashMap<>();
    // Per stream and type: the index of its response still waiting for an answer.
    Map<String, Integer> open = new HashMap<>();
    for (StreamEvent e : events) {
      String stream = e.streamKey();
      anyOf.putIfAbsent(stream, e);
      first.putIfAbsent(stream, e.at());
      List<Response> list = responses.computeIfAbsent(stream, s -> new ArrayList<>());
      String slot = stream + " " + e.type();
      switch (e.kind()) {
        case CLOSED -> closed.put(stream, e.at());
        case SENT -> {
          open.put(slot, list.size());
          list.add(new Response(e.type(), e.epoch(), e.version(), e.at(), null, null, "", List.of()));
        }
        case ACK, NACK -> {
          Integer i = open.remove(slot);
          if (i != null && list.get(i).version().equals(e.version())) {
            list.set(i, list.get(i).answered(e));
          } else {
            // Its response was sent before the window began.
            list.add(new Response(e.type(), e.epoch(), e.version(), null, null, null, "", List.of()).answered(e));
          }
        }
      }
    }
    List<Stream> streams = new ArrayList<>();
    responses.forEach((key, list) -> {
      StreamEvent any = anyOf.get(key);
      streams.add(new Stream(any.replicaId(), any.streamId(), first.get(key), closed.get(key), List.copyOf(list)));
    });
    return new ClientHistory(nodeId, since, type, events.size() >= LIMIT, List.copyOf(streams));
  }

  /** Whether any event of the node is in the window. */
  public boolean isEmpty() {
    return streams.isEmpty();
  }
}
