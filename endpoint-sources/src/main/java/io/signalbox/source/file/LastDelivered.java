package io.signalbox.source.file;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a {@link WatchedFile} last told its consumer, so that only news is delivered: a read that
 * finds the content, the absence or the refusal already delivered is not delivered again. Kept
 * apart from the watching, which decides <em>when</em> to read; this decides whether a read says
 * anything new. Only the watcher's thread (or the thread starting it) uses it.
 */
final class LastDelivered {

  // At most one of the three is set; none before the first delivery or after forget().
  private byte[] hash;
  private boolean missing;
  private String unusable;

  /**
   * The event to deliver for {@code read}, or empty when it is what was last delivered; the news is
   * remembered as delivered.
   *
   * @param gone the file was missing when observed right after the read (read bytes of a file
   *     deleted meanwhile are no content)
   */
  Optional<WatchedFile.Event> news(RegularFile.Read read, boolean gone) {
    if (read instanceof RegularFile.Read.Unusable refused) {
      if (refused.reason().equals(unusable)) {
        return Optional.empty();
      }
      unusable = refused.reason();
      missing = false;
      hash = null;
      return Optional.of(new WatchedFile.Event.Unusable(refused.reason()));
    }
    if (!(read instanceof RegularFile.Read.Bytes content) || gone) {
      if (missing) {
        return Optional.empty();
      }
      missing = true;
      hash = null;
      unusable = null;
      return Optional.of(new WatchedFile.Event.Missing());
    }
    byte[] contentHash = sha256(content.bytes());
    if (!missing && unusable == null && Arrays.equals(contentHash, hash)) {
      return Optional.empty();
    }
    missing = false;
    unusable = null;
    hash = contentHash;
    return Optional.of(new WatchedFile.Event.Content(content.bytes()));
  }

  /**
   * Whether {@code read} differs from what was last delivered, without remembering it (the poll's
   * check for new content behind an unchanged size and mtime). A missing file is never news here:
   * it shows up as a changed observation.
   */
  boolean differs(RegularFile.Read read) {
    if (read instanceof RegularFile.Read.Bytes content) {
      return missing || unusable != null || !Arrays.equals(sha256(content.bytes()), hash);
    }
    if (read instanceof RegularFile.Read.Unusable refused) {
      return !refused.reason().equals(unusable);
    }
    return false;
  }

  /** The watcher failed with {@code reason}, which was delivered. */
  void failed(String reason) {
    unusable = reason;
  }

  /** Nothing was delivered: after a restart, the consumer hears the file again even if unchanged. */
  void forget() {
    hash = null;
    missing = false;
    unusable = null;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
