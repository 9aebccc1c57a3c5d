package io.signalbox.controlplane.admin;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The dashboard's static files, served from the jar's {@code /dashboard/} resources, and its chart
 * library (uPlot) from the WebJar on the classpath: no CDN, no build step, nothing fetched from the
 * network. Only plain file names are served, so a path can never reach another resource.
 */
final class DashboardFiles {

  private static final Pattern NAME = Pattern.compile("[a-z0-9-]+\\.(html|css|js|svg)");
  private static final Map<String, String> TYPES = Map.of(
      "html", "text/html; charset=utf-8",
      "css", "text/css; charset=utf-8",
      "js", "text/javascript; charset=utf-8",
      "svg", "image/svg+xml");

  /**
   * The library's files by the names the page uses. Their path holds the WebJar's version, read from
   * the WebJar itself so that the root pom pins it in one place.
   */
  private static final Map<String, String> UPLOT = Map.of(
      "uplot.js", "dist/uPlot.iife.min.js",
      "uplot.css", "dist/uPlot.min.css");
  private static final String UPLOT_ROOT = "/META-INF/resources/webjars/uplot/" + webJarVersion("uplot") + "/";

  private DashboardFiles() {}

  private static String webJarVersion(String artifact) {
    String path = "/META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
    try (InputStream in = DashboardFiles.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("the WebJar org.webjars.npm:" + artifact + " is not on the classpath (" + path + ")");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  static void index(Context ctx) {
    serve(ctx, "index.html");
  }

  static void file(Context ctx) {
    serve(ctx, ctx.pathParam("file"));
  }

  private static void serve(Context ctx, String name) {
    if (!NAME.matcher(name).matches()) {
      throw new ApiException(HttpStatus.NOT_FOUND, "not_found", "no dashboard file '" + name + "'");
    }
    byte[] content;
    String resource = UPLOT.containsKey(name) ? UPLOT_ROOT + UPLOT.get(name) : "/dashboard/" + name;
    try (InputStream in = DashboardFiles.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new ApiException(HttpStatus.NOT_FOUND, "not_found", "no dashboard file '" + name + "'");
      }
      content = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read dashboard file " + name, e);
    }
    String ext = name.substring(name.lastIndexOf('.') + 1);
    ctx.header("Cache-Control", "no-cache")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
        .contentType(TYPES.get(ext))
        .result(content);
  }
}
