package aslfire;

import java.awt.BorderLayout;
import java.awt.Component;
import java.awt.Font;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;

/**
 * The first-run setup: asks once, then makes {@code <conf>/aslfire/venv} from a Python 3.11+, installs the carried
 * lock ({@code pip install --require-hashes}) and the carried wheel ({@code --no-deps}, its SHA-256 checked against
 * the manifest first), pip's lines shown in a small dialog and kept in {@code <conf>/aslfire/setup.log}, and records
 * python.json ({@code by: setup}). Every dialog is VASSAL's window's child; nothing here runs on the Swing thread
 * except the dialogs themselves.
 */
final class PythonSetup {
  static final String ASK = "aslfire-setup-ask";
  static final String PROGRESS = "aslfire-setup-progress";
  static final String NO_PYTHON = "aslfire-setup-nopython";
  static final String FAILED = "aslfire-setup-failed";
  static final String TITLE = "ASL fire bridge: Python";
  static final String[] PIP = {"--no-input", "--progress-bar", "off", "--disable-pip-version-check"};

  private PythonSetup() {
  }

  /** Thrown with the one line a player reads in the failure dialog. */
  static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    Failed(String msg) {
      super(msg);
    }
  }

  static Component parent() {
    GameModule gm = GameModule.getGameModule();
    return gm == null ? null : gm.getPlayerWindow();
  }

  /** A modal question or message on the Swing thread, waited for; the index of the option chosen (-1: closed). */
  static int dialog(String name, String message, int type, String[] options) {
    final int[] answer = {-1};
    Runnable r = () -> {
      JTextArea text = new JTextArea(message);
      text.setEditable(false);
      text.setLineWrap(true);
      text.setWrapStyleWord(true);
      text.setOpaque(false);
      text.setColumns(52);
      text.setName(name + "-text");
      text.setSize(text.getPreferredSize());
      JOptionPane pane = new JOptionPane(text, type, JOptionPane.DEFAULT_OPTION, null, options, options[0]);
      JDialog d = pane.createDialog(parent(), TITLE);
      d.setName(name);
      d.setVisible(true);
      Object v = pane.getValue();
      answer[0] = Arrays.asList(options).indexOf(v);
      d.dispose();
    };
    try {
      if (SwingUtilities.isEventDispatchThread()) {
        r.run();
      }
      else {
        SwingUtilities.invokeAndWait(r);
      }
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    catch (java.lang.reflect.InvocationTargetException e) {
      BridgeProcess.appendLog(PythonConfig.setupLog(), "--- a dialog failed: " + e.getCause());
    }
    return answer[0];
  }

  /** Asks once whether to set Python up: true for "Set up". */
  static boolean ask(String version) {
    String msg = "The ASL fire bridge's buttons need its Python part (asl-vassal-bridge " + version
        + ", carried in this extension). It can be set up now, once: a Python 3.11 or newer on this computer makes "
        + "its own environment in\n" + PythonConfig.venvDir() + "\nand installs the carried package and its "
        + "dependencies (about 30 MB downloaded from the Python Package Index, each file checked by its hash). "
        + "It then starts by itself with each game.\n\nNot now: you are not asked again; Preferences, tab "
        + "\"ASL fire bridge\", \"Set up Python now\" does it later.";
    return dialog(ASK, msg, JOptionPane.QUESTION_MESSAGE, new String[] {"Set up", "Not now"}) == 0;
  }

  /** No Python 3.11+ found: what to install and where to set the path. */
  static void noPython(List<String> rejected) {
    StringBuilder msg = new StringBuilder("The ASL fire bridge needs Python 3.11 or newer, and none was found on this "
        + "computer.\n\nInstall it from https://www.python.org/downloads/ (on Windows: tick \"Add python.exe to "
        + "PATH\"; on Linux: your distribution's python3 and python3-venv packages), then open a game again. If it "
        + "is installed somewhere else, give its path in VASSAL's Preferences, tab \"ASL fire bridge\", "
        + "\"Python\".");
    if (!rejected.isEmpty()) {
      msg.append("\n\nTried: ");
      msg.append(String.join("; ", rejected.subList(0, Math.min(4, rejected.size()))));
    }
    dialog(NO_PYTHON, msg.toString(), JOptionPane.WARNING_MESSAGE, new String[] {"OK"});
  }

  static void failed(String line) {
    dialog(FAILED, "Setting up Python for the ASL fire bridge failed: " + line + "\n\nThe whole log: "
        + PythonConfig.setupLog() + "\nPreferences, tab \"ASL fire bridge\", \"Set up Python now\" tries again.",
        JOptionPane.ERROR_MESSAGE, new String[] {"OK"});
  }

  /** The small progress dialog: pip's lines as they come. */
  static final class Progress {
    private JDialog dialog;
    private JTextArea text;
    private JLabel step;

    void show() {
      SwingUtilities.invokeLater(() -> {
        Component owner = parent();
        dialog = new JDialog(owner instanceof java.awt.Window ? (java.awt.Window) owner : null, TITLE + " setup");
        dialog.setName(PROGRESS);
        step = new JLabel("Setting up Python for the ASL fire bridge...");
        step.setName(PROGRESS + "-step");
        step.setBorder(BorderFactory.createEmptyBorder(6, 6, 6, 6));
        text = new JTextArea(14, 72);
        text.setEditable(false);
        text.setName(PROGRESS + "-text");
        text.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 11));
        text.setLineWrap(true);
        JButton hide = new JButton("Hide (it goes on)");
        hide.addActionListener(e -> dialog.setVisible(false));
        JPanel south = new JPanel();
        south.add(hide);
        dialog.getContentPane().add(step, BorderLayout.NORTH);
        dialog.getContentPane().add(new JScrollPane(text), BorderLayout.CENTER);
        dialog.getContentPane().add(south, BorderLayout.SOUTH);
        dialog.pack();
        dialog.setLocationRelativeTo(parent());
        dialog.setVisible(true);
      });
    }

    void step(String s) {
      line("== " + s);
      SwingUtilities.invokeLater(() -> {
        if (step != null) {
          step.setText(s);
        }
      });
    }

    void line(String s) {
      BridgeProcess.appendLog(PythonConfig.setupLog(), s);
      SwingUtilities.invokeLater(() -> {
        if (text != null) {
          text.append(s + "\n");
          text.setCaretPosition(text.getDocument().getLength());
        }
      });
    }

    void close() {
      SwingUtilities.invokeLater(() -> {
        if (dialog != null) {
          dialog.dispose();
        }
      });
    }
  }

  static String sha256(File f) throws IOException {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      try (InputStream in = Files.newInputStream(f.toPath())) {
        byte[] buf = new byte[65536];
        int n;
        while ((n = in.read(buf)) > 0) {
          md.update(buf, 0, n);
        }
      }
      StringBuilder sb = new StringBuilder();
      for (byte b : md.digest()) {
        sb.append(String.format("%02x", b));
      }
      return sb.toString();
    }
    catch (NoSuchAlgorithmException e) {
      throw new IOException(e);
    }
  }

  private static File copyCarried(String member, File to) throws Failed {
    try (InputStream in = PythonConfig.carried(member)) {
      if (in == null) {
        throw new Failed("the extension carries no " + PythonConfig.CARRIED + member);
      }
      Files.createDirectories(to.getParentFile().toPath());
      Files.copy(in, to.toPath(), StandardCopyOption.REPLACE_EXISTING);
      return to;
    }
    catch (IOException e) {
      throw new Failed("could not copy " + PythonConfig.CARRIED + member + " to " + to + " (" + e.getMessage() + ")");
    }
  }

  private static void run(Progress progress, List<String> cmd, long timeoutSec, String what) throws Failed {
    progress.line("$ " + String.join(" ", cmd));
    Proc p = Proc.run(cmd, timeoutSec, progress::line);
    if (p.exit != 0) {
      String last = p.lastLine().isEmpty() ? "exit status " + p.exit : p.lastLine();
      if (p.exit == -1) {
        last = "no answer within " + timeoutSec + " s";
      }
      if (last.contains("ensurepip")) {
        last += " (on Debian or Ubuntu install the python3-venv package)";
      }
      throw new Failed(what + ": " + last);
    }
  }

  /**
   * Sets up the carried Python with {@code base} (a Python 3.11+): the venv's interpreter, python.json written.
   *
   * @throws Failed with the line the failure dialog shows (already in the setup log)
   */
  static String install(String base, Map<?, ?> manifest) throws Failed {
    File dir = PythonConfig.dir();
    File log = PythonConfig.setupLog();
    log.delete();
    Progress progress = new Progress();
    progress.show();
    try {
      String wheel = String.valueOf(manifest.get("wheel"));
      String version = String.valueOf(manifest.get("version"));
      if (wheel.contains("/") || wheel.contains("\\") || !wheel.endsWith(".whl")) {
        throw new Failed("the carried manifest names no wheel file (\"wheel\": " + Json.quote(wheel) + ")");
      }
      progress.step("Checking the package the extension carries (asl-vassal-bridge " + version + ")");
      File carried = new File(dir, "carried");
      File req = copyCarried("requirements.txt", new File(carried, "requirements.txt"));
      File whl = copyCarried(wheel, new File(carried, wheel));
      String sum;
      try {
        sum = sha256(whl);
      }
      catch (IOException e) {
        throw new Failed("could not read " + whl + " (" + e.getMessage() + ")");
      }
      if (!sum.equalsIgnoreCase(String.valueOf(manifest.get("sha256")))) {
        throw new Failed("the carried wheel's SHA-256 is " + sum + ", not the manifest's " + manifest.get("sha256")
            + ": the extension file is damaged; download it again");
      }
      File venv = PythonConfig.venvDir();
      File vpy = PythonConfig.venvPython(venv);
      if (!vpy.isFile()) {
        progress.step("Making the bridge's Python environment in " + venv);
        run(progress, Arrays.asList(base, "-m", "venv", venv.getPath()), 600, "making the environment failed");
      }
      progress.step("Installing the dependencies (pinned, checked by hash)");
      List<String> deps = new ArrayList<>(Arrays.asList(vpy.getPath(), "-m", "pip", "install", "--require-hashes"));
      deps.addAll(Arrays.asList(PIP));
      deps.addAll(Arrays.asList("-r", req.getPath()));
      run(progress, deps, 1800, "pip failed");
      progress.step("Installing asl-vassal-bridge " + version);
      List<String> pkg = new ArrayList<>(Arrays.asList(vpy.getPath(), "-m", "pip", "install", "--no-deps",
          "--force-reinstall"));
      pkg.addAll(Arrays.asList(PIP));
      pkg.add(whl.getPath());
      run(progress, pkg, 600, "pip failed");
      String got = PythonConfig.packageVersion(vpy.getPath());
      if (got == null) {
        throw new Failed("the installed package does not import in " + vpy);
      }
      new PythonConfig(vpy.getPath(), "setup", got, venv.getPath()).write();
      progress.step("Done: asl-vassal-bridge " + got + " in " + venv);
      progress.close();
      return vpy.getPath();
    }
    catch (Failed e) {
      progress.line("FAILED: " + e.getMessage());
      progress.close();
      throw e;
    }
    catch (IOException e) {
      progress.line("FAILED: " + e);
      progress.close();
      throw new Failed("could not write " + PythonConfig.file() + " (" + e.getMessage() + ")");
    }
  }
}
