package aslfire;

import java.awt.Component;
import java.awt.FlowLayout;
import java.awt.Font;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

import javax.swing.BoxLayout;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;
import VASSAL.configure.BooleanConfigurer;
import VASSAL.configure.Configurer;
import VASSAL.configure.IntConfigurer;
import VASSAL.configure.StringConfigurer;
import VASSAL.configure.StringEnumConfigurer;

/**
 * The extension's preferences for its Python (VASSAL's Preferences, tab "ASL fire bridge"): the Python path, "start
 * the fire bridge with a game", the bridge's log and "Set up Python now"; and the hidden "setup declined" answer.
 */
final class BridgePrefs {
  static final String TAB = "ASL fire bridge";
  static final String PYTHON = "aslfirePython";
  static final String START = "aslfireStartBridge";
  static final String DECLINED = "aslfireSetupDeclined";
  static final String LOG_DIALOG = "aslfire-bridge-log";
  static final String RISK_MODE = "aslfireRiskMode";
  static final String RISK_TURNS = "aslfireRiskTurns";
  static final String RISK_TRIALS = "aslfireRiskTrials";
  /** The Fire risk layer's two modes, as the preference shows them. */
  static final String[] RISK_MODES = {"The end of this AFPh (exact odds)", "A forecast: burning after N Player Turns"};

  private BridgePrefs() {
  }

  static void addTo(GameModule gm, AutoStart auto) {
    gm.getPrefs().addOption(TAB, new StringConfigurer(PYTHON, "Python program (empty: found by itself)", ""));
    gm.getPrefs().addOption(TAB, new BooleanConfigurer(START, "Start the fire bridge with a game", Boolean.TRUE));
    gm.getPrefs().addOption(null, new BooleanConfigurer(DECLINED, "Python setup declined", Boolean.FALSE));
    gm.getPrefs().addOption(TAB, new StringEnumConfigurer(RISK_MODE, "Fire risk layer shows", RISK_MODES));
    gm.getPrefs().addOption(TAB, new IntConfigurer(RISK_TURNS, "Fire risk forecast: Player Turns (1–8)", 4));
    gm.getPrefs().addOption(TAB, new IntConfigurer(RISK_TRIALS, "Fire risk forecast: trials (100–20000)", 2000));
    gm.getPrefs().addOption(TAB, new Tools(auto));
  }

  /** The Fire risk layer's mode: {"mode": "afph" or "forecast", "turns", "trials"} (bounded) as JSON. */
  static String riskMode() {
    GameModule gm = GameModule.getGameModule();
    boolean forecast = RISK_MODES[1].equals(gm.getPrefs().getValue(RISK_MODE));
    int turns = Math.max(1, Math.min(8, number(gm.getPrefs().getValue(RISK_TURNS), 4)));
    int trials = Math.max(100, Math.min(20000, number(gm.getPrefs().getValue(RISK_TRIALS), 2000)));
    return "{\"mode\":\"" + (forecast ? "forecast" : "afph") + "\",\"turns\":" + turns + ",\"trials\":" + trials
        + "}";
  }

  private static int number(Object o, int otherwise) {
    return o instanceof Number ? ((Number) o).intValue() : otherwise;
  }

  static void save() {
    try {
      GameModule.getGameModule().getPrefs().save();
    }
    catch (IOException ignored) {
      // kept for this session; asked again next time
    }
  }

  /** The log's last {@code max} characters. */
  static String tail(File f, int max) {
    if (!f.isFile()) {
      return "(no log yet: " + f + ")";
    }
    try (RandomAccessFile r = new RandomAccessFile(f, "r")) {
      long start = Math.max(0, r.length() - max);
      r.seek(start);
      byte[] b = new byte[(int) (r.length() - start)];
      r.readFully(b);
      return new String(b, StandardCharsets.UTF_8);
    }
    catch (IOException e) {
      return "(" + f + " cannot be read: " + e.getMessage() + ")";
    }
  }

  /**
   * The bridge's log (and the setup's) in a dialog of its own, never in the game's chat; a child of the window
   * {@code from} is in (VASSAL's modal Preferences), so that it can be read and scrolled while that is open.
   */
  static void showLog(Component from) {
    Component parent = from == null ? PythonSetup.parent() : SwingUtilities.getWindowAncestor(from);
    JDialog d = new JDialog(parent instanceof java.awt.Window ? (java.awt.Window) parent : null,
        "ASL fire bridge: the bridge's log");
    d.setName(LOG_DIALOG);
    JTextArea text = new JTextArea(24, 90);
    text.setName(LOG_DIALOG + "-text");
    text.setEditable(false);
    text.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 11));
    text.setText((PythonConfig.setupLog().isFile() ? PythonConfig.setupLog() + ":\n"
        + tail(PythonConfig.setupLog(), 20000) + "\n\n" : "")
        + PythonConfig.bridgeLog() + ":\n" + tail(PythonConfig.bridgeLog(), 60000));
    d.getContentPane().add(new JScrollPane(text));
    d.pack();
    text.setCaretPosition(text.getDocument().getLength());
    d.setLocationRelativeTo(parent);
    d.setVisible(true);
  }

  /** Buttons in the tab (no value of their own): the log, the setup again, where the files are. */
  static final class Tools extends Configurer {
    private final AutoStart auto;
    private JPanel panel;

    Tools(AutoStart auto) {
      super("aslfireTools", "");
      this.auto = auto;
    }

    @Override
    public String getValueString() {
      return "";
    }

    @Override
    public void setValue(String s) {
      // buttons only
    }

    @Override
    public Component getControls() {
      if (panel == null) {
        panel = new JPanel();
        panel.setLayout(new BoxLayout(panel, BoxLayout.Y_AXIS));
        JPanel row = new JPanel(new FlowLayout(FlowLayout.LEFT));
        JButton log = new JButton("Show the bridge's log");
        log.setName("aslfire-pref-log");
        log.addActionListener(e -> showLog(log));
        JButton setup = new JButton("Set up Python now");
        setup.setName("aslfire-pref-setup");
        setup.addActionListener(e -> auto.setupNow());
        row.add(log);
        row.add(setup);
        panel.add(row);
        JPanel logRow = new JPanel(new FlowLayout(FlowLayout.LEFT));
        logRow.add(new JLabel("The bridge's log:"));
        JTextField where = new JTextField(PythonConfig.bridgeLog().getPath(), 36);
        where.setEditable(false);
        where.setName("aslfire-pref-logpath");
        logRow.add(where);
        panel.add(logRow);
      }
      return panel;
    }
  }
}
