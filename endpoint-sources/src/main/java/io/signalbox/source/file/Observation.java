package io.signalbox.source.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

/**
 * What a watched file looked like at one moment (the file its name resolves to, which inode, its
 * size and mtime); equal observations mean "nothing moved". {@link WatchedFile} reads content only
 * once its observations hold still.
 */
record Observation(Path target, Object fileKey, long size, long modifiedNanos) {
  static final Observation MISSING = new Observation(null, null, -1, -1);

  /**
   * True when {@code next} is another file than this one, both present: what a rename over the
   * name or a symlink swap leaves behind, never what a write into the same file does.
   */
  boolean replacedBy(Observation next) {
    return this != MISSING && next != MISSING && fileKey != null
        && (!fileKey.equals(next.fileKey) || !target.equals(next.target));
  }

  /** {@code path} now, symlinks followed; {@link #MISSING} when it (or its target) is not there. */
  static Observation of(Path path) {
    try {
      Path target = path.toRealPath();
      BasicFileAttributes attributes = Files.readAttributes(target, BasicFileAttributes.class);
      return new Observation(
          target, attributes.fileKey(), attributes.size(), attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS));
    } catch (IOException e) {
      return MISSING;
    }
  }
}
