package io.signalbox.validation;

/** Errors block an epoch; warnings are recorded and shown. */
public enum Severity {
  ERROR,
  WARNING
}
