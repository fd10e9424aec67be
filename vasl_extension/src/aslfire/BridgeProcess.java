package aslfire;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bridge's Python process, started by the extension: {@code <python> -m asl_vassal_bridge bridge
 * --connection-file <file>} (no shell; {@code pythonw.exe} on Windows, no console window), its output in
 * {@code <conf>/aslfire/bridge.log}; restarted once when it exits unexpectedly; ended with its descendants when the
 * module or VASSAL closes (a JVM shutdown hook too), so no Python process outlives VASSAL.
 */
final class BridgeProcess {
  /** Larger logs are started afresh (the old one kept as bridge.log.1). */
  static final long LOG_LIMIT = 2L * 1024 * 1024;
  /** The environment variable naming a bridge the extension started (see {@link BridgeApi#setListenerOf}). */
  static final String ID_VARIABLE = "ASLFIRE_BRIDGE_ID";

  private final FireBridge bridge;
  private Process process;
  private String python;
  private volatile boolean stopping;
  private int restarts;
  private long started;
  private Thread hook;
  private volatile String stopReason = "stopped by VASSAL";
  /** Told to the process (ASLFIRE_BRIDGE_ID) and by it to the extension: on Windows a venv's python.exe is a
   * launcher, so the pid the extension started is not the pid of the Python that connects. */
  private String id;

  BridgeProcess(FireBridge bridge) {
    this.bridge = bridge;
  }

  synchronized boolean running() {
    return process != null && process.isAlive();
  }

  synchronized long pid() {
    return process != null && process.isAlive() ? process.pid() : -1;
  }

  synchronized int restarts() {
    return restarts;
  }

  synchronized String python() {
    return python;
  }

  static List<String> command(String python, File connectionFile) {
    return new ArrayList<>(Arrays.asList(PythonFinder.windowless(python, PythonFinder.osKind()), "-m",
        "asl_vassal_bridge", "bridge",
        "--connection-file", connectionFile.getPath()));
  }

  /** Starts the bridge with {@code python} unless it runs already; false (and the reason logged) if it cannot. */
  synchronized boolean start(String py) {
    if (running()) {
      return true;
    }
    python = py;
    stopping = false;
    stopReason = "stopped by VASSAL";
    return launch();
  }

  private boolean launch() {
    File conn = Gateway.connectionFile().toFile();
    List<String> cmd = command(python, conn);
    File log = PythonConfig.bridgeLog();
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("PYTHONUNBUFFERED", "1");
    pb.environment().put("PYTHONIOENCODING", "utf-8");
    pb.environment().remove("PYTHONPATH");
    id = "vassal-" + Long.toUnsignedString(new java.security.SecureRandom().nextLong(), 36);
    pb.environment().put(ID_VARIABLE, id);
    pb.directory(PythonConfig.dir());
    try {
      PythonConfig.dir().mkdirs();
      final Process p = pb.start();
      p.getOutputStream().close();
      process = p;
      started = System.currentTimeMillis();
      appendLog(log, "--- " + new java.util.Date() + ": started " + String.join(" ", cmd) + " (pid " + p.pid() + ")");
      Thread reader = new Thread(() -> copyOutput(p, log), "aslfire-bridge-log");
      reader.setDaemon(true);
      reader.start();
      p.onExit().thenAccept(this::exited);
      if (hook == null) {
        hook = new Thread(this::stopNow, "aslfire-bridge-stop");
        Runtime.getRuntime().addShutdownHook(hook);
      }
      return true;
    }
    catch (IOException e) {
      appendLog(log, "--- could not start " + String.join(" ", cmd) + ": " + e.getMessage());
      process = null;
      return false;
    }
  }

  private static void copyOutput(Process p, File log) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        appendLog(log, line);
      }
    }
    catch (IOException ignored) {
      // the process ended
    }
  }

  static synchronized void appendLog(File log, String line) {
    try {
      if (log.length() > LOG_LIMIT) {
        File old = new File(log.getPath() + ".1");
        old.delete();
        log.renameTo(old);
      }
      try (OutputStream o = new FileOutputStream(log, true); PrintStream ps = new PrintStream(o, true, "UTF-8")) {
        ps.println(line);
      }
    }
    catch (IOException ignored) {
      // a log that cannot be written must not stop the bridge
    }
  }

  /** The process ended: restart it once if nobody asked it to stop (once more after a restarted bridge connected). */
  private void exited(Process p) {
    boolean restart;
    long startedAt;
    String startedId;
    synchronized (this) {
      if (p != process) {
        return;
      }
      appendLog(PythonConfig.bridgeLog(), "--- the bridge exited with status " + p.exitValue()
          + (stopping ? " (" + stopReason + ")" : ""));
      process = null;
      startedAt = started;
      startedId = id;
      restart = !stopping && (restarts == 0 || bridge.connectedAfter(started));
      if (restart) {
        restarts++;
      }
    }
    bridge.pythonGone(startedAt, startedId);
    if (restart) {
      FireBridge.say("- ASL fire bridge: the bridge (Python) stopped unexpectedly (exit status " + p.exitValue()
          + "); it was started again.");
      synchronized (this) {
        if (!stopping && process == null) {
          launch();
        }
      }
    }
    else if (!stopping) {
      FireBridge.say("- ASL fire bridge: the bridge (Python) stopped again (exit status " + p.exitValue()
          + ") and was not restarted; its log: " + PythonConfig.bridgeLog()
          + " (Preferences, tab \"ASL fire bridge\": Show the bridge's log).");
    }
  }

  /**
   * A bridge started from a terminal ({@code caller}) serves the buttons now: this one, if it runs and is not that
   * one, is stopped (not restarted) and its pid returned; -1 if there was none.
   */
  long handOver(String caller) {
    long pid;
    synchronized (this) {
      if (process == null || !process.isAlive() || caller.equals(id)) {
        return -1;
      }
      pid = process.pid();
      stopReason = "a bridge started from a terminal (" + caller + ") took over the buttons";
    }
    stop();
    return pid;
  }

  /** Ends the bridge and everything it started (the module closes, VASSAL exits, or the player turned it off). */
  void stop() {
    stopNow();
    synchronized (this) {
      if (hook != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (IllegalStateException ignored) {
          // VASSAL is exiting: the hook runs anyway
        }
        hook = null;
      }
    }
  }

  private void stopNow() {
    Process p;
    synchronized (this) {
      stopping = true;
      p = process;
    }
    if (p != null) {
      Proc.end(p);
      if (!p.isAlive()) {
        exited(p);  // logged now, not by onExit's thread, which a JVM that is exiting may never run
      }
    }
  }
}
