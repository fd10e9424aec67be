package aslfire;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

import javax.swing.SwingUtilities;
import javax.swing.Timer;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.counters.BasicPiece;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Properties;

/**
 * Tells Python when a watched counter (VASL's Phase Track: Python names its gpids and names) changes state —
 * moved by this player, by the opponent, or by an Undo. It polls the counters' states on the Swing thread and
 * sends the event "phase-track"; what the change means is decided in Python.
 */
final class PhaseWatch {
  static final int PERIOD_MS = Integer.getInteger("aslfire.watchMs", 400);
  static final String EVENT = "phase-track";

  private final FireBridge bridge;
  private volatile Set<String> watched = Collections.emptySet();
  /** The watched counters' states last told to Python (null: not yet read in this game). */
  private String told;
  private Timer timer;

  PhaseWatch(FireBridge bridge) {
    this.bridge = bridge;
  }

  /** Watches the counters with these gpids or BasicPiece names (empty: stops watching). */
  void watch(Set<String> gpidsOrNames) {
    watched = Collections.unmodifiableSet(new HashSet<>(gpidsOrNames));
    SwingUtilities.invokeLater(() -> {
      told = null;
      if (timer == null) {
        timer = new Timer(PERIOD_MS, e -> tick());
        timer.start();
      }
    });
  }

  void stop() {
    SwingUtilities.invokeLater(() -> {
      if (timer != null) {
        timer.stop();
        timer = null;
      }
    });
  }

  private void tick() {
    Set<String> w = watched;
    GameModule gm = GameModule.getGameModule();
    if (w.isEmpty() || gm == null || !gm.getGameState().isGameStarted()) {
      told = null;
      return;
    }
    String now = states(w);
    if (told == null) {
      told = now;
    }
    else if (!now.equals(told) && bridge.notifyPython(EVENT)) {
      told = now;
    }
  }

  private static String states(Set<String> w) {
    StringBuilder sb = new StringBuilder();
    for (Map map : Map.getMapList()) {
      for (GamePiece p : Snapshot.allPieces(map)) {
        String gpid = String.valueOf(p.getProperty(Properties.PIECE_ID));
        String name = String.valueOf(p.getProperty(BasicPiece.BASIC_NAME));
        if (w.contains(gpid) || w.contains(name)) {
          sb.append(p.getId()).append('=').append(p.getState()).append('\n');
        }
      }
    }
    return sb.toString();
  }
}
