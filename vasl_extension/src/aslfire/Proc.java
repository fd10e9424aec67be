package aslfire;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A short-lived program run without a shell: its output lines, exit status and last line. */
final class Proc {
  final int exit;
  final List<String> lines;

  private Proc(int exit, List<String> lines) {
    this.exit = exit;
    this.lines = lines;
  }

  /** The last non-blank line of its output ("" if none). */
  String lastLine() {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (!lines.get(i).trim().isEmpty()) {
        return lines.get(i).trim();
      }
    }
    return "";
  }

  /**
   * Runs {@code cmd} (stderr merged into stdout), each output line also given to {@code each} (may be null); ended
   * with its descendants after {@code timeoutSec}, exit status -1 then. An unstartable program: exit -2, its reason.
   */
  static Proc run(List<String> cmd, long timeoutSec, Consumer<String> each) {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("PYTHONIOENCODING", "utf-8");
    pb.environment().put("PYTHONUNBUFFERED", "1");
    List<String> out = new ArrayList<>();
    Process p;
    try {
      p = pb.start();
    }
    catch (IOException e) {
      out.add(String.valueOf(e.getMessage()));
      return new Proc(-2, out);
    }
    try {
      p.getOutputStream().close();
    }
    catch (IOException ignored) {
      // no input either way
    }
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          synchronized (out) {
            out.add(line);
          }
          if (each != null) {
            each.accept(line);
          }
        }
      }
      catch (IOException ignored) {
        // the program ended
      }
    }, "aslfire-proc-output");
    reader.setDaemon(true);
    reader.start();
    int exit;
    try {
      if (p.waitFor(timeoutSec, TimeUnit.SECONDS)) {
        exit = p.exitValue();
      }
      else {
        end(p);
        exit = -1;
      }
      reader.join(2000);
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      end(p);
      exit = -1;
    }
    synchronized (out) {
      return new Proc(exit, new ArrayList<>(out));
    }
  }

  /** Ends a process and everything it started: destroy, a grace period, then destroyForcibly. */
  static void end(Process p) {
    List<ProcessHandle> kids = new ArrayList<>();
    p.descendants().forEach(kids::add);
    p.destroy();
    for (ProcessHandle k : kids) {
      k.destroy();
    }
    try {
      if (!p.waitFor(3, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(3, TimeUnit.SECONDS);
      }
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
    for (ProcessHandle k : kids) {
      if (k.isAlive()) {
        k.destroyForcibly();
      }
    }
  }

  static boolean isFile(File f) {
    return f != null && f.isFile();
  }
}
