package io.signalbox.controlplane.cli;

/**
 * Why an operator command did not do what was asked, as the one line printed after
 * {@code signalbox: } on stderr, and the exit code (DESIGN §6: 1 failure, 3 timed out waiting).
 */
public final class CliFailure extends RuntimeException {

  /** A request failed or the server refused it. */
  public static final int FAILED = 1;
  /** {@code drain --wait} gave up before the drain was safe. */
  public static final int TIMED_OUT = 3;

  private final int exitCode;

  CliFailure(String line, int exitCode) {
    super(line, null, false, false);
    this.exitCode = exitCode;
  }

  static CliFailure failed(String line) {
    return new CliFailure(line, FAILED);
  }

  public int exitCode() {
    return exitCode;
  }
}
