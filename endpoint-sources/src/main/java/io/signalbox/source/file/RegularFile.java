package io.signalbox.source.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one way a watched file is read: a regular file within a size limit, or the reason why not
 * (a directory, a FIFO, a device, a symlink loop, too large, unreadable). {@link WatchedFile} and
 * {@code signalbox validate} both read through it, so they refuse the same things.
 */
final class RegularFile {

  private RegularFile() {}

  /** What reading the path found. */
  sealed interface Read {
    record Bytes(byte[] bytes) implements Read {}

    record Missing() implements Read {}

    record Unusable(String reason) implements Read {}
  }

  /**
   * Reads {@code path} only when it is a regular file within {@code maxBytes}, following symlinks
   * (a ConfigMap's {@code ..data} swap). Its type is checked before it is opened: opening a FIFO
   * blocks until a writer comes, and reading {@code /dev/zero} never ends (issue 29).
   */
  static Read read(Path path, long maxBytes) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return new Read.Missing();
    } catch (FileSystemException e) {
      // A symlink loop, a path through a non-directory: the OS's reason says which.
      return new Read.Unusable("cannot be read: " + (e.getReason() != null ? e.getReason() : e.toString()));
    } catch (IOException e) {
      return new Read.Unusable("cannot be read: " + e);
    }
    if (attributes.isDirectory()) {
      return new Read.Unusable("is a directory, not a regular file");
    }
    if (!attributes.isRegularFile()) {
      return new Read.Unusable("is not a regular file (a FIFO, socket or device)");
    }
    if (attributes.size() > maxBytes) {
      return tooLarge(attributes.size(), maxBytes);
    }
    try (InputStream in = Files.newInputStream(path)) {
      // Bounded even if the file grows after its size was read.
      byte[] bytes = in.readNBytes((int) maxBytes + 1);
      return bytes.length > maxBytes ? tooLarge(bytes.length, maxBytes) : new Read.Bytes(bytes);
    } catch (NoSuchFileException e) {
      return new Read.Missing();
    } catch (AccessDeniedException e) {
      return new Read.Unusable("cannot be read: permission denied");
    } catch (IOException e) {
      return new Read.Unusable("cannot be read: " + e);
    }
  }

  private static Read tooLarge(long size, long maxBytes) {
    return new Read.Unusable("is " + size + " bytes, over the limit of " + maxBytes + " bytes");
  }
}
