package io.signalbox.controlplane;

/** Entry point of the jar: {@code serve} and the operator CLI. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("signalbox");
  }
}
