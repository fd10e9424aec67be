package aslfire;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;

import VASSAL.build.GameModule;

/**
 * The Python side the extension runs: {@code <VASSAL conf dir>/aslfire/python.json}
 * ({@code {"python", "by": "install"|"setup", "version", "venv"}}, written by {@code asl-fire install} or by the
 * first-run setup), and the Python the extension carries ({@code aslfire-python/} members of the .vmdx).
 */
final class PythonConfig {
  static final String CARRIED = "aslfire-python/";

  final String python;
  final String by;
  final String version;
  final String venv;

  PythonConfig(String python, String by, String version, String venv) {
    this.python = python;
    this.by = by;
    this.version = version;
    this.venv = venv;
  }

  /** {@code <VASSAL conf dir>/aslfire}: the connection file's folder, python.json, the venv and the logs. */
  static File dir() {
    return new File(VASSAL.Info.getConfDir(), "aslfire");
  }

  static File file() {
    return new File(dir(), "python.json");
  }

  static File bridgeLog() {
    return new File(dir(), "bridge.log");
  }

  static File setupLog() {
    return new File(dir(), "setup.log");
  }

  static File venvDir() {
    return new File(dir(), "venv");
  }

  /** A venv's interpreter: {@code Scripts\python.exe} on Windows, {@code bin/python} elsewhere. */
  static File venvPython(File venv) {
    return PythonFinder.windows() ? new File(new File(venv, "Scripts"), "python.exe")
        : new File(new File(venv, "bin"), "python");
  }

  /** python.json, or null if absent; a file that is not what the contract says is reported in {@code why[0]}. */
  static PythonConfig read(String[] why) {
    File f = file();
    if (!f.isFile()) {
      return null;
    }
    try {
      Object o = Json.parse(new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8));
      if (o instanceof Map && ((Map<?, ?>) o).get("python") instanceof String) {
        Map<?, ?> m = (Map<?, ?>) o;
        return new PythonConfig((String) m.get("python"), str(m.get("by")), str(m.get("version")), str(m.get("venv")));
      }
      why[0] = f + ": no \"python\" (expected {\"python\": PATH, \"by\": ..., \"version\": ..., \"venv\": ...})";
    }
    catch (IOException | RuntimeException e) {
      why[0] = f + ": not readable JSON (" + e.getMessage() + ")";
    }
    return null;
  }

  private static String str(Object o) {
    return o instanceof String ? (String) o : null;
  }

  void write() throws IOException {
    File f = file();
    Files.createDirectories(f.getParentFile().toPath());
    String json = "{\"python\": " + Json.quote(python) + ", \"by\": " + Json.quote(by) + ", \"version\": "
        + Json.quote(version) + ", \"venv\": " + Json.quote(venv) + "}\n";
    Path tmp = new File(f.getPath() + ".tmp").toPath();
    Files.write(tmp, json.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, f.toPath(), StandardCopyOption.REPLACE_EXISTING);
  }

  /** The package version {@code python} has installed, or null (not installed, or it does not run). */
  static String packageVersion(String python) {
    if (python == null || python.isEmpty() || !new File(python).isFile()) {
      return null;
    }
    Proc p = Proc.run(Arrays.asList(python, "-c",
        "import asl_vassal_bridge as a; print('aslfire-version ' + a.__version__)"), 60, null);
    String last = p.lastLine();
    return p.exit == 0 && last.startsWith("aslfire-version ") ? last.substring("aslfire-version ".length()) : null;
  }

  /** The carried Python's manifest ({@code aslfire-python/manifest.json}) as a map, or null if none is carried. */
  static Map<?, ?> carriedManifest() {
    try (InputStream in = carried("manifest.json")) {
      if (in == null) {
        return null;
      }
      Object o = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return o instanceof Map ? (Map<?, ?>) o : null;
    }
    catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** A carried member, or null: from the module's archive and its extensions (VASSAL's DataArchive). */
  static InputStream carried(String name) {
    GameModule gm = GameModule.getGameModule();
    if (gm == null || gm.getDataArchive() == null) {
      return null;
    }
    try {
      return gm.getDataArchive().getInputStream(CARRIED + name);
    }
    catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
