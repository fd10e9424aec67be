package aslfire;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds a Python 3.11+ on a player's machine: the configured path first, then {@code py -3} (Windows),
 * {@code python3}/{@code python} on PATH, Windows' registry (PEP 514), then the folders each OS's installers use. Every candidate is run
 * ({@code -c} printing its version and {@code sys.executable}) and kept only by its answer, so the Windows Store's
 * {@code python.exe} stub (which opens the Store instead of running) is rejected.
 *
 * <p>The OS, environment and file system root are given, so the Windows and macOS searches can be tried on a laid-out
 * tree (the root stands for {@code C:\} or {@code /}).
 */
final class PythonFinder {
  static final int[] MINIMUM = {3, 11};
  static final String CHECK = "import sys; print('%d.%d.%d' % sys.version_info[:3]); print(sys.executable)";

  /** A Python that ran: its interpreter ({@code sys.executable}) and version. */
  static final class Found {
    final String executable;
    final String version;

    Found(String executable, String version) {
      this.executable = executable;
      this.version = version;
    }
  }

  /** The search's outcome: the first suitable Python (or null) and, for each candidate tried, why it was not kept. */
  static final class Result {
    final Found found;
    final List<String> rejected;

    Result(Found found, List<String> rejected) {
      this.found = found;
      this.rejected = rejected;
    }
  }

  private final String os;
  private final Map<String, String> env;
  private final File root;

  PythonFinder(String os, Map<String, String> env, File root) {
    this.os = os;
    this.env = env;
    this.root = root;
  }

  /** This machine: its OS, environment and root ({@code aslfire.searchRoot} stands for it in tests). */
  static PythonFinder current() {
    String root = System.getProperty("aslfire.searchRoot");
    return new PythonFinder(osKind(), System.getenv(),
        root != null && !root.isEmpty() ? new File(root) : new File(windows() ? "C:\\" : "/"));
  }

  static String osKind() {
    String n = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    return n.startsWith("windows") ? "windows" : n.startsWith("mac") ? "macos" : "linux";
  }

  static boolean windows() {
    return "windows".equals(osKind());
  }

  private String env(String key) {
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        return e.getValue();
      }
    }
    return null;
  }

  private File home() {
    String h = env("windows".equals(os) ? "USERPROFILE" : "HOME");
    return h != null && !h.isEmpty() ? new File(h) : null;
  }

  /** The commands to try, in order, each once (a configured path first, whether or not it exists). */
  List<List<String>> candidates(String configured) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (configured != null && !configured.trim().isEmpty()) {
      out.put(configured.trim(), Collections.singletonList(configured.trim()));
    }
    boolean win = "windows".equals(os);
    if (win) {
      File py = onPath("py");
      String sysRoot = env("SystemRoot");
      String local = env("LOCALAPPDATA");
      for (File f : Arrays.asList(py, new File(sysRoot == null ? new File(root, "Windows") : new File(sysRoot), "py.exe"), local == null ? null
          : new File(new File(new File(new File(local, "Programs"), "Python"), "Launcher"), "py.exe"))) {
        if (Proc.isFile(f)) {
          out.putIfAbsent(f.getPath() + " -3", Arrays.asList(f.getPath(), "-3"));
        }
      }
    }
    List<String> names = new ArrayList<>(win ? Arrays.asList("python", "python3")
        : Arrays.asList("python3", "python3.14", "python3.13", "python3.12", "python3.11", "python"));
    for (String n : names) {
      File f = onPath(n);
      if (f != null) {
        out.putIfAbsent(f.getPath(), Collections.singletonList(f.getPath()));
      }
    }
    if (win) {
      for (File f : registered()) {
        if (Proc.isFile(f)) {
          out.putIfAbsent(f.getPath(), Collections.singletonList(f.getPath()));
        }
      }
    }
    for (File f : installFolders()) {
      if (Proc.isFile(f)) {
        out.putIfAbsent(f.getPath(), Collections.singletonList(f.getPath()));
      }
    }
    return new ArrayList<>(out.values());
  }

  /** A program on PATH by name (Windows: with PATHEXT's endings), or null. */
  File onPath(String name) {
    String path = env("PATH");
    if (path == null) {
      return null;
    }
    boolean win = "windows".equals(os);
    List<String> exts = win ? Arrays.asList(".exe", ".bat", ".cmd", "") : Collections.singletonList("");
    for (String dir : path.split(win ? ";" : ":")) {
      if (dir.isEmpty()) {
        continue;
      }
      for (String ext : exts) {
        File f = new File(dir, name + ext);
        if (f.isFile() && (win || f.canExecute())) {
          return f;
        }
      }
    }
    return null;
  }

  /**
   * The interpreters Windows' registry names (PEP 514: {@code HKCU}, then {@code HKLM},
   * {@code Software\Python\PythonCore\<version>\InstallPath}, value {@code ExecutablePath}), asked of
   * {@code %SystemRoot%\System32\reg.exe}; the newest version first.
   */
  List<File> registered() {
    String sysRoot = env("SystemRoot");
    File reg = new File(new File(sysRoot == null ? new File(root, "Windows") : new File(sysRoot), "System32"),
        "reg.exe");
    List<File> out = new ArrayList<>();
    if (!reg.isFile()) {
      return out;
    }
    for (String hive : Arrays.asList("HKCU", "HKLM")) {
      Proc p = Proc.run(Arrays.asList(reg.getPath(), "query", hive + "\\Software\\Python\\PythonCore", "/s", "/v",
          "ExecutablePath"), 20, null);
      List<File> found = new ArrayList<>();
      for (String line : p.lines) {
        int i = line.indexOf("REG_SZ");
        if (p.exit == 0 && i >= 0 && line.trim().startsWith("ExecutablePath")) {
          found.add(new File(line.substring(i + "REG_SZ".length()).trim()));
        }
      }
      Collections.reverse(found);  // reg lists the versions oldest first
      out.addAll(found);
    }
    return out;
  }

  /** Where each OS's Python installers put the interpreter, newest version first. */
  List<File> installFolders() {
    List<File> out = new ArrayList<>();
    if ("windows".equals(os)) {
      String local = env("LOCALAPPDATA");
      String pf = env("ProgramFiles");
      List<File> parents = new ArrayList<>();
      if (local != null) {
        parents.add(new File(new File(local, "Programs"), "Python"));
      }
      parents.add(pf != null ? new File(pf) : new File(root, "Program Files"));
      parents.add(root);  // C:\Python3XY (older installers, custom installs)
      for (File parent : parents) {
        for (String v : versionFolders(parent, "Python3")) {
          out.add(new File(new File(parent, v), "python.exe"));
        }
      }
    }
    else if ("macos".equals(os)) {
      File versions = new File(root, "Library/Frameworks/Python.framework/Versions");
      for (String v : versionFolders(versions, "3.")) {
        out.add(new File(new File(new File(versions, v), "bin"), "python3"));
      }
      out.add(new File(root, "opt/homebrew/bin/python3"));
      out.add(new File(root, "usr/local/bin/python3"));
      File h = home();
      if (h != null) {
        out.add(new File(h, ".pyenv/shims/python3"));
      }
      out.add(new File(root, "usr/bin/python3"));
    }
    else {
      out.add(new File(root, "usr/bin/python3"));
      out.add(new File(root, "usr/local/bin/python3"));
      for (String n : Arrays.asList("python3.14", "python3.13", "python3.12", "python3.11")) {
        out.add(new File(root, "usr/bin/" + n));
      }
    }
    return out;
  }

  /** The subfolders of {@code dir} named {@code prefix} + a minor version, newest first. */
  private static List<String> versionFolders(File dir, String prefix) {
    String[] names = dir.list();
    List<String> out = new ArrayList<>();
    if (names == null) {
      return out;
    }
    for (String n : names) {
      if (n.startsWith(prefix) && n.length() > prefix.length()
          && n.substring(prefix.length()).replace("-32", "").replace("-arm64", "").matches("\\d+")) {
        out.add(n);
      }
    }
    out.sort((a, b) -> Integer.compare(minor(b, prefix), minor(a, prefix)));
    return out;
  }

  private static int minor(String name, String prefix) {
    String digits = name.substring(prefix.length()).replaceAll("\\D.*", "");
    return digits.isEmpty() ? 0 : Integer.parseInt(digits);
  }

  /** Runs the candidate; its Python if it answers as a Python 3.11+, else null with the reason in {@code why[0]}. */
  static Found check(List<String> cmd, String[] why) {
    if (cmd.size() == 1) {
      File f = new File(cmd.get(0));
      if (!f.exists()) {
        why[0] = "no such file";
        return null;
      }
      if (f.isDirectory()) {
        why[0] = "a folder, not a Python program";
        return null;
      }
    }
    List<String> run = new ArrayList<>(cmd);
    run.add("-c");
    run.add(CHECK);
    Proc p = Proc.run(run, 30, null);
    List<String> lines = new ArrayList<>();
    for (String l : p.lines) {
      if (!l.trim().isEmpty()) {
        lines.add(l.trim());
      }
    }
    if (p.exit != 0 || lines.size() < 2 || !lines.get(lines.size() - 2).matches("\\d+\\.\\d+\\.\\d+")) {
      String said = lines.isEmpty() ? "nothing" : "\"" + shorten(p.lastLine()) + "\"";
      why[0] = p.exit == -2 ? "does not run (" + shorten(p.lastLine()) + ")"
          : "did not answer as Python does (exit status " + p.exit + ", said " + said + ")";
      return null;
    }
    String version = lines.get(lines.size() - 2);
    String[] parts = version.split("\\.");
    int major = Integer.parseInt(parts[0]);
    int minor = Integer.parseInt(parts[1]);
    if (major < MINIMUM[0] || major == MINIMUM[0] && minor < MINIMUM[1]) {
      why[0] = "Python " + version + ", older than 3.11";
      return null;
    }
    return new Found(lines.get(lines.size() - 1), version);
  }

  /** The interpreter to run the bridge with: on Windows {@code pythonw.exe} beside {@code python.exe} (no console). */
  static String windowless(String python, String os) {
    File f = new File(python);
    if ("windows".equals(os) && f.getName().equalsIgnoreCase("python.exe")) {
      File w = new File(f.getParentFile(), "pythonw.exe");
      if (w.isFile()) {
        return w.getPath();
      }
    }
    return python;
  }

  static String shorten(String s) {
    return s.length() > 160 ? s.substring(0, 157) + "..." : s;
  }

  /** The first candidate that is a Python 3.11+, with why each earlier one was not. */
  Result find(String configured) {
    List<String> rejected = new ArrayList<>();
    for (List<String> cmd : candidates(configured)) {
      String[] why = new String[1];
      Found f = check(cmd, why);
      if (f != null) {
        return new Result(f, rejected);
      }
      rejected.add(String.join(" ", cmd) + ": " + why[0]);
    }
    return new Result(null, rejected);
  }

  /**
   * For tests (never called by VASSAL): {@code java -cp … aslfire.PythonFinder OS ROOT [KEY=VALUE…] [--configured P]}
   * prints the candidates, then the search's result as JSON; {@code --windowless OS PYTHON} the interpreter the
   * bridge is started with.
   */
  public static void main(String[] args) {
    if (args.length == 3 && "--windowless".equals(args[0])) {
      System.out.println(windowless(args[2], args[1]));
      return;
    }
    Map<String, String> env = new LinkedHashMap<>();
    String configured = null;
    for (int i = 2; i < args.length; i++) {
      if ("--configured".equals(args[i]) && i + 1 < args.length) {
        configured = args[++i];
      }
      else {
        int eq = args[i].indexOf('=');
        env.put(args[i].substring(0, eq), args[i].substring(eq + 1));
      }
    }
    PythonFinder pf = new PythonFinder(args[0], env, new File(args[1]));
    StringBuilder sb = new StringBuilder("{\"candidates\":[");
    List<List<String>> cands = pf.candidates(configured);
    for (int i = 0; i < cands.size(); i++) {
      sb.append(i > 0 ? "," : "").append('[');
      for (int j = 0; j < cands.get(i).size(); j++) {
        sb.append(j > 0 ? "," : "").append(Json.quote(cands.get(i).get(j)));
      }
      sb.append(']');
    }
    Result r = pf.find(configured);
    sb.append("],\"found\":").append(r.found == null ? "null" : "{\"executable\":" + Json.quote(r.found.executable)
        + ",\"version\":" + Json.quote(r.found.version) + "}");
    sb.append(",\"rejected\":[");
    for (int i = 0; i < r.rejected.size(); i++) {
      sb.append(i > 0 ? "," : "").append(Json.quote(r.rejected.get(i)));
    }
    System.out.println(sb.append("]}"));
  }
}
