package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** The options every command that talks to a running server shares (a picocli mixin). */
public final class ClientOptions {

  /** {@code --output}: an aligned table for people, the server's JSON for scripts. */
  public enum Output { table, json }

  @Spec(Spec.Target.MIXEE) CommandSpec command;

  @Option(names = "--server", paramLabel = "URL", converter = ServerUrl.class,
      defaultValue = "${env:SIGNALBOX_SERVER:-http://127.0.0.1:8080}",
      description = "The admin server. Default: env SIGNALBOX_SERVER, then ${DEFAULT-VALUE}.")
  String server;

  @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:SIGNALBOX_TOKEN}",
      description = "Bearer token for the admin API. Default: env SIGNALBOX_TOKEN.")
  String token;

  @Option(names = "--cacert", paramLabel = "FILE", converter = CaCertificates.class,
      defaultValue = "${env:SIGNALBOX_CACERT}",
      description = "PEM CA certificate(s) to trust for an https:// --server (the admin server's admin.tls). "
          + "Default: env SIGNALBOX_CACERT, then the JVM's trust store.")
  CaCertificates.Trust cacert;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
      description = "table or json (the server's JSON as is). Default: ${DEFAULT-VALUE}.")
  Output output;

  private AdminClient client;

  AdminClient client() {
    if (client == null) {
      client = new AdminClient(server, token, cacert);
    }
    return client;
  }

  boolean json() {
    return output == Output.json;
  }

  PrintWriter out() {
    return command.commandLine().getOut();
  }

  PrintWriter err() {
    return command.commandLine().getErr();
  }

  void print(JsonNode node) {
    out().println(Json.pretty(node));
    out().flush();
  }

  void print(Table table) {
    out().print(table.render());
    out().flush();
  }

  void println(String line) {
    out().println(line);
    out().flush();
  }

  /** A write's answer: the JSON itself with {@code -o json}, else the one line that says what happened. */
  void answered(JsonNode answer, String line) {
    if (json()) {
      print(answer);
    } else {
      println(line);
    }
  }

  /** {@code http(s)://host[:port]}, without a trailing slash; anything else is a usage error. */
  static final class ServerUrl implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      String trimmed = value.strip().replaceAll("/+$", "");
      try {
        URI uri = new URI(trimmed);
        if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) || uri.getHost() == null
            || !(uri.getRawPath() == null || uri.getRawPath().isEmpty()) || uri.getRawQuery() != null) {
          throw new TypeConversionException("expected http://host:port, was '" + value + "'");
        }
        return trimmed;
      } catch (URISyntaxException e) {
        throw new TypeConversionException("expected http://host:port, was '" + value + "'");
      }
    }
  }
}
