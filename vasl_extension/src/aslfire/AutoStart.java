package aslfire;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import VASSAL.build.GameModule;

/**
 * Decides which Python runs the bridge and starts it (through {@link BridgeProcess}) when a game opens or a button is
 * pressed with no Python connected: the Python set in the preferences, else python.json's, else the first-run setup
 * of the carried package (asked once). A bridge already connected (e.g. from a terminal) is used, never doubled.
 * Its work runs on one thread of its own, never on VASSAL's Swing thread.
 */
final class AutoStart {
  /** Longest wait for a started bridge to connect before a press gives up. */
  static final long CONNECT_WAIT_MS = Long.getLong("aslfire.connectWaitMs", 60000L);

  private final FireBridge bridge;
  private final BridgeProcess process;
  private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "aslfire-autostart");
    t.setDaemon(true);
    return t;
  });
  /** A press waits for the bridge to connect: later presses meanwhile are not queued behind it. */
  private final java.util.concurrent.atomic.AtomicBoolean pressWaiting = new java.util.concurrent.atomic.AtomicBoolean();
  /** How many times it has decided (a game opened, a press): tests wait for a decision, not for a time. */
  private final java.util.concurrent.atomic.AtomicInteger decided = new java.util.concurrent.atomic.AtomicInteger();
  /** The chat lines said once per session (a bad configured path, a broken python.json). */
  private final java.util.Set<String> said = Collections.synchronizedSet(new java.util.HashSet<>());

  AutoStart(FireBridge bridge) {
    this.bridge = bridge;
    this.process = new BridgeProcess(bridge);
  }

  BridgeProcess process() {
    return process;
  }

  int decided() {
    return decided.get();
  }

  static boolean enabled() {
    GameModule gm = GameModule.getGameModule();
    return gm != null && !Boolean.FALSE.equals(gm.getPrefs().getValue(BridgePrefs.START));
  }

  /** A game was opened or started. */
  void gameOpened() {
    if (enabled()) {
      worker.submit(() -> ensure(false));
    }
  }

  /**
   * A button pressed with no Python connected: start the bridge and press it when it connects. False if nothing is
   * started by the extension (the preference is off), so the press says how to start it by hand.
   */
  boolean press(String action) {
    if (!enabled()) {
      return false;
    }
    if (!pressWaiting.compareAndSet(false, true)) {
      return true;  // one press already waits for the bridge
    }
    worker.submit(() -> {
      try {
        pressWhenConnected(action);
      }
      finally {
        pressWaiting.set(false);
      }
    });
    return true;
  }

  private void pressWhenConnected(String action) {
    ensure(false);
    if (process.running() || bridge.getListener() != null) {
      waitAndPress(action);
    }
    else if (Boolean.TRUE.equals(GameModule.getGameModule().getPrefs().getValue(BridgePrefs.DECLINED))
        && PythonConfig.carriedManifest() != null) {
      FireBridge.say("- ASL fire bridge: its Python is not set up (you chose \"Not now\"): Preferences, tab "
          + "\"ASL fire bridge\", \"Set up Python now\" sets it up; then press again.");
    }
    else {
      bridge.notConnected();
    }
  }

  private void waitAndPress(String action) {
    long end = System.currentTimeMillis() + CONNECT_WAIT_MS;
    while (bridge.getListener() == null && System.currentTimeMillis() < end && process.running()) {
      try {
        Thread.sleep(100);
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (bridge.getListener() != null) {
      bridge.pressed(action);
    }
    else {
      FireBridge.say("- ASL fire bridge: the bridge (Python) did not connect; its log: " + PythonConfig.bridgeLog()
          + " (Preferences, tab \"ASL fire bridge\").");
    }
  }

  /** The preferences' "Set up Python now": the setup again, asked for by the player. */
  void setupNow() {
    worker.submit(() -> {
      GameModule.getGameModule().getPrefs().setValue(BridgePrefs.DECLINED, Boolean.FALSE);
      ensure(true);
    });
  }

  void stop() {
    process.stop();
  }

  private void sayOnce(String line) {
    if (said.add(line)) {
      FireBridge.say(line);
    }
  }

  /** Starts the bridge if none is connected or running; {@code setupAsked}: the player asked for the setup. */
  private void ensure(boolean setupAsked) {
    try {
      decide(setupAsked);
    }
    finally {
      decided.incrementAndGet();
    }
  }

  private void decide(boolean setupAsked) {
    if (!setupAsked && (bridge.getListener() != null || process.running())) {
      return;
    }
    GameModule gm = GameModule.getGameModule();
    Object pref = gm.getPrefs().getValue(BridgePrefs.PYTHON);
    String configured = pref == null ? "" : String.valueOf(pref).trim();
    Map<?, ?> manifest = PythonConfig.carriedManifest();
    if (setupAsked && manifest == null) {
      PythonSetup.dialog(PythonSetup.FAILED, "This copy of the ASL fire bridge extension carries no Python package "
          + "to set up. Install asl-vassal-bridge with pip (Python 3.11+) and run \"asl-fire install\", or use the "
          + "extension file of a release, which carries it.", javax.swing.JOptionPane.INFORMATION_MESSAGE,
          new String[] {"OK"});
      return;
    }
    if (!configured.isEmpty()) {
      String[] why = new String[1];
      PythonFinder.Found f = PythonFinder.check(Collections.singletonList(configured), why);
      if (f == null) {
        sayOnce("- ASL fire bridge: the Python set in Preferences (tab \"ASL fire bridge\"), " + configured + ", "
            + why[0] + "; correct or clear it there.");
        return;
      }
      if (!setupAsked && PythonConfig.packageVersion(configured) != null) {
        start(configured);
        return;
      }
      if (manifest == null) {
        sayOnce("- ASL fire bridge: the Python set in Preferences, " + configured + ", has no asl-vassal-bridge "
            + "installed, and this extension carries none: install it there (pip install asl-vassal-bridge).");
        return;
      }
      setup(f.executable, manifest, setupAsked);
      return;
    }
    String[] why = new String[1];
    PythonConfig cfg = PythonConfig.read(why);
    if (cfg != null && !setupAsked) {
      String got = PythonConfig.packageVersion(cfg.python);
      boolean outdated = got != null && "setup".equals(cfg.by) && manifest != null
          && !got.equals(String.valueOf(manifest.get("version")));
      if (got != null && !outdated) {
        start(cfg.python);
        return;
      }
      if (outdated) {
        setup(null, manifest, true);  // the player agreed once: the newer carried package replaces the old
        return;
      }
    }
    if (manifest == null) {
      if (cfg != null || why[0] != null) {
        sayOnce("- ASL fire bridge: the Python recorded in " + PythonConfig.file() + " does not run the bridge ("
            + (cfg != null ? cfg.python : why[0]) + "); run \"asl-fire install\" again or set the Python in "
            + "Preferences, tab \"ASL fire bridge\".");
      }
      return;  // nothing carried: the player starts "asl-fire bridge" (the press says so)
    }
    setup(null, manifest, setupAsked);
  }

  private void setup(String base, Map<?, ?> manifest, boolean asked) {
    GameModule gm = GameModule.getGameModule();
    if (!asked) {
      if (Boolean.TRUE.equals(gm.getPrefs().getValue(BridgePrefs.DECLINED))) {
        return;
      }
      if (!PythonSetup.ask(String.valueOf(manifest.get("version")))) {
        gm.getPrefs().setValue(BridgePrefs.DECLINED, Boolean.TRUE);
        BridgePrefs.save();
        return;
      }
    }
    if (base == null) {
      PythonFinder.Result r = PythonFinder.current().find(null);
      if (r.found == null) {
        PythonSetup.noPython(r.rejected);
        return;
      }
      base = r.found.executable;
    }
    process.stop();  // the package is replaced under a running bridge otherwise (Windows keeps its files locked)
    try {
      start(PythonSetup.install(base, manifest));
    }
    catch (PythonSetup.Failed e) {
      PythonSetup.failed(e.getMessage());
    }
  }

  private void start(String python) {
    if (bridge.getListener() != null) {
      return;  // connected meanwhile (a terminal's bridge): used as it is
    }
    if (!process.start(python)) {
      sayOnce("- ASL fire bridge: could not start " + python + "; see " + PythonConfig.bridgeLog() + ".");
    }
  }
}
