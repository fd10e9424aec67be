package aslfire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import javax.swing.SwingUtilities;

import VASSAL.build.AbstractConfigurable;
import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameComponent;
import VASSAL.build.module.GlobalOptions;
import VASSAL.build.module.ServerConnection;
import VASSAL.build.module.documentation.HelpFile;
import VASSAL.chat.ChatServerConnection;
import VASSAL.chat.Room;
import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import VASSAL.configure.BooleanConfigurer;
import VASSAL.tools.KeyStrokeListener;

/**
 * The ASL fire bridge inside VASSAL: a py4j gateway for the Python rules
 * (snapshot out, one batch of commands in) and fire actions in one toolbar menu ({@link FireToolbar}: Wind change in
 * the RPh, Fire upkeep at the end of the AFPh, Fire odds, Fire finder, FT/MOL attack, Fire start, Heat of
 * Battle, Units in Blazes in the RtPh) that call Python back. The rules never live here.
 *
 * <p>Added to a module by the extension's buildFile as an ExtensionElement of the GameModule.
 */
public class FireBridge extends AbstractConfigurable implements GameComponent, CommandEncoder {
  public static final String VERSION = "0.4.0";
  /** Longest wait for VASSAL's Swing thread, in milliseconds. */
  static final long EDT_TIMEOUT_MS = Long.getLong("aslfire.edtTimeoutMs", 10000L);

  /** Toolbar actions and their labels: the action names are what Python receives. */
  static final String[][] ACTIONS = {
    {"wind", "Wind change (RPh)", "B25.65: check for a Wind change at the start of the RPh"},
    {"upkeep", "Fire upkeep (AFPh)", "B25: Flame to Blaze, Spreading Fire and Gusts at the end of the AFPh"},
    {"odds", "Fire odds", "Show the odds of every pending fire roll"},
    {"finder", "Fire finder", "Every Flame and Blaze on the map, its Location and level, and where it may spread"},
    {"attack", "FT/MOL attack", "A22: a FT or MOL attack by the selected unit, rolled with VASSAL's dice"},
    {"firestart", "Fire start", "B25.13, A24.32, huts: an HE, WP or hut attack's fire start, VASSAL's dice"},
    {"hob", "Heat of Battle", "A15: roll Heat of Battle for the selected unit"},
    {"rtph", "Units in Blazes (RtPh)", "B25.4: every unit that must leave a Blaze, with its options"},
    {"risk", "Fire risk on the map", "B25.6: each hex that may catch fire this AFPh, by its chance"},
  };

  /** The event Python is sent when a game is opened or started with Python connected: it reads the game then. */
  static final String GAME_OPENED = "game-opened";

  /** The preference (VASSAL's Preferences, tab "ASL fire bridge"): run a skipped phase's button by itself. */
  static final String AUTO_PREF = "aslfireAutoPhase";

  private FireToolbar toolbar;
  private final ChangeMarks marks = new ChangeMarks();
  private final RiskLayer risk = new RiskLayer(this);
  private KeyStrokeListener riskKey;
  private final ConnectionWatch connectionWatch = new ConnectionWatch(this);
  private final PhaseWatch phaseWatch = new PhaseWatch(this);
  private Gateway gateway;
  private AutoStart autoStart;
  private volatile PythonListener listener;
  private final Object listenerLock = new Object();
  /** Python stopped answering (not a goodbye): its return is said in the chat. */
  private volatile boolean wasLost;
  /** When a Python last connected (ms): a bridge the extension started that connected may be restarted again. */
  private volatile long listenerSince;
  private volatile String listenerWho;
  private volatile String processed = "";
  /** The phases prompted in this game: a Player Turn's two, kept for the last few dozen Player Turns. */
  private final java.util.LinkedHashSet<String> prompted = new java.util.LinkedHashSet<>();
  static final int PROMPTS_KEPT = 64;
  /** A button's Python call is running: a second press waits for it instead of rolling again. */
  private final java.util.concurrent.atomic.AtomicBoolean busy = new java.util.concurrent.atomic.AtomicBoolean();

  /** One die roll made with VASSAL's RNG for Python: its purpose and faces. */
  static final class Roll {
    final String purpose;
    final int[] dice;

    Roll(String purpose, int[] dice) {
      this.purpose = purpose;
      this.dice = dice;
    }

    String faces() {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < dice.length; i++) {
        if (i > 0) {
          sb.append(',');
        }
        sb.append(dice[i]);
      }
      return sb.toString();
    }
  }

  private final Object rollLock = new Object();
  private long session;
  private final List<Roll> rolls = new ArrayList<>();

  public FireBridge() {
    setConfigureName("ASL fire bridge");
  }

  // --- AbstractConfigurable -------------------------------------------------------------

  @Override
  public String[] getAttributeNames() {
    return new String[] {"name"};
  }

  @Override
  public void setAttribute(String key, Object value) {
    if ("name".equals(key)) {
      setConfigureName(String.valueOf(value));
    }
  }

  @Override
  public String getAttributeValueString(String key) {
    return "name".equals(key) ? getConfigureName() : null;
  }

  @Override
  public String[] getAttributeDescriptions() {
    return new String[] {"Name:  "};
  }

  @Override
  public Class<?>[] getAttributeTypes() {
    return new Class<?>[] {String.class};
  }

  @Override
  public Class<?>[] getAllowableConfigureComponents() {
    return new Class<?>[0];
  }

  @Override
  public HelpFile getHelpFile() {
    return null;
  }

  public static String getConfigureTypeName() {
    return "ASL fire bridge (py4j)";
  }

  @Override
  public void addTo(Buildable parent) {
    GameModule gm = (GameModule) parent;
    gm.addCommandEncoder(this);
    gm.getGameState().addGameComponent(this);
    toolbar = new FireToolbar(this);
    toolbar.addTo(gm.getToolBar());
    gm.getPrefs().addOption("ASL fire bridge", new BooleanConfigurer(AUTO_PREF,
        "When the Phase Track passes the RPh or the AFPh without its Wind change or Fire upkeep, run it by itself",
        Boolean.FALSE));
    riskKey = new KeyStrokeListener(e -> toggleRisk(), RISK_KEY);
    gm.addKeyStrokeListener(riskKey);
    autoStart = new AutoStart(this);
    BridgePrefs.addTo(gm, autoStart);
    gateway = new Gateway(this);
    try {
      gateway.start();
    }
    catch (Exception e) {
      gateway = null;
      Chatter.warning("ASL fire bridge: could not start its py4j gateway: " + e);
    }
    connectionWatch.start();
  }

  @Override
  public void removeFrom(Buildable parent) {
    GameModule gm = (GameModule) parent;
    gm.removeCommandEncoder(this);
    gm.getGameState().removeGameComponent(this);
    if (toolbar != null) {
      toolbar.removeFrom(gm.getToolBar());
    }
    marks.removeFromMaps();
    risk.off();
    if (riskKey != null) {
      gm.removeKeyStrokeListener(riskKey);
    }
    connectionWatch.stop();
    phaseWatch.stop();
    if (autoStart != null) {
      autoStart.stop();
    }
    stop();
  }

  /** Ends the bridge process the extension started, if any (VASSAL exits). */
  void stopBridgeProcess() {
    AutoStart a = autoStart;
    if (a != null) {
      a.stop();
    }
  }

  void stop() {
    Gateway g = gateway;
    gateway = null;
    if (g != null) {
      g.stop();
    }
  }

  Gateway getGateway() {
    return gateway;
  }

  // --- GameComponent / CommandEncoder ---------------------------------------------------

  @Override
  public void setup(boolean gameStarting) {
    Snapshot.forgetSent();
    if (gameStarting && listener != null) {
      // read off the Swing thread, in slices of it; then Python reads the game too: the first press then reads only
      // what changed
      VaslTerrain.prepareInBackground(() -> notifyPython(GAME_OPENED));
    }
    if (gameStarting && autoStart != null) {
      autoStart.gameOpened();  // no Python connected (a terminal's is used as it is): the extension starts its bridge
    }
    if (!gameStarting) {
      marks.clear();
      risk.off();
      showRisk();
      VaslTerrain.forget();
      processed = "";
      synchronized (prompted) {
        prompted.clear();
      }
    }
  }

  @Override
  public Command getRestoreCommand() {
    Command c = processed.isEmpty() ? null : new PhaseMark(this, processed, "");
    java.util.List<String> keys = getPrompted();
    if (!keys.isEmpty()) {
      Command p = new PromptMark(this, keys, "");
      c = c == null ? p : c.append(p);
    }
    return c;
  }

  @Override
  public Command decode(String s) {
    risk.soon();  // another player's command (or a log step): the Fire risk layer looks at the counters again
    Command c = PhaseMark.decode(this, s);
    return c != null ? c : PromptMark.decode(this, s);
  }

  @Override
  public String encode(Command c) {
    if (c instanceof PhaseMark && ((PhaseMark) c).owner() == this) {
      return ((PhaseMark) c).encode();
    }
    return c instanceof PromptMark && ((PromptMark) c).owner() == this ? ((PromptMark) c).encode() : null;
  }

  /** The phases prompted (or run by themselves) in this game, oldest first ({@link PromptMark}). */
  java.util.List<String> getPrompted() {
    synchronized (prompted) {
      return new ArrayList<>(prompted);
    }
  }

  void addPrompted(java.util.Collection<String> keys) {
    synchronized (prompted) {
      prompted.addAll(keys);
      java.util.Iterator<String> it = prompted.iterator();
      while (prompted.size() > PROMPTS_KEPT && it.hasNext()) {
        it.next();
        it.remove();
      }
    }
  }

  /**
   * Marks the phase {@code key} prompted, showing {@code line} (if any) in every player's chat: false, and nothing
   * done, if it was marked already (by this player's bridge or the other's). Runs on the Swing thread.
   */
  boolean markPrompted(String key, String line) {
    synchronized (prompted) {
      if (prompted.contains(key)) {
        return false;
      }
    }
    PromptMark m = new PromptMark(this, java.util.Collections.singletonList(key), line);
    m.execute();
    GameModule gm = GameModule.getGameModule();
    if (gm.getServer() != null) {
      gm.getServer().sendToOthers(m);
    }
    return true;
  }

  String getProcessed() {
    return processed;
  }

  void setProcessed(String key) {
    processed = key == null ? "" : key;
  }

  // --- state for Python -----------------------------------------------------------------

  /** Null if the game may be changed now, else why not (outside a game, or in a server's Main Room). */
  String whyNoChanges() {
    GameModule gm = GameModule.getGameModule();
    if (gm == null || !gm.getGameState().isGameStarted()) {
      return "no game is open in VASSAL: open or start a game first; nothing was changed";
    }
    String room = roomName();
    if (room != null && ChatServerConnection.DEFAULT_ROOM_NAME.equals(room)) {
      return "you are in the server's " + room + ", where VASSAL does not send game changes to the other players: "
          + "join or create a game room first; nothing was changed";
    }
    return null;
  }

  static String roomName() {
    GameModule gm = GameModule.getGameModule();
    ServerConnection s = gm == null ? null : gm.getServer();
    if (s == null || !s.isConnected() || !(s instanceof ChatServerConnection)) {
      return null;
    }
    Room r = ((ChatServerConnection) s).getRoom();
    return r == null ? null : r.getName();
  }

  void appendGameStatus(StringBuilder sb) {
    GameModule gm = GameModule.getGameModule();
    sb.append("{\"started\":").append(gm.getGameState().isGameStarted());
    sb.append(",\"processed\":");
    Json.quote(sb, processed);
    sb.append(",\"player\":");
    Json.quote(sb, GlobalOptions.getInstance().getPlayerId());
    sb.append(",\"connected\":").append(gm.getServer() != null && gm.getServer().isConnected());
    sb.append(",\"room\":");
    Json.quote(sb, roomName());
    sb.append(",\"may_change\":").append(whyNoChanges() == null);
    sb.append(",\"auto_phase\":").append(Boolean.TRUE.equals(gm.getPrefs().getValue(AUTO_PREF)));
    sb.append(",\"prompted\":[");
    boolean firstKey = true;
    for (String k : getPrompted()) {
      if (!firstKey) {
        sb.append(',');
      }
      firstKey = false;
      Json.quote(sb, k);
    }
    sb.append(']');
    sb.append(",\"why_not\":");
    Json.quote(sb, whyNoChanges());
    sb.append('}');
  }

  // --- dice -----------------------------------------------------------------------------

  /** Starts a new roll session (the rolls of one phase); earlier unapplied rolls are dropped. */
  long newSession() {
    synchronized (rollLock) {
      session++;
      rolls.clear();
      return session;
    }
  }

  int[] roll(long sessionId, String purpose, int count) {
    if (count < 1 || count > 2) {
      throw new IllegalArgumentException("a roll is one die (dr) or two (DR), not " + count);
    }
    synchronized (rollLock) {
      if (sessionId != session) {
        throw new IllegalStateException("roll session " + sessionId + " is over (current: " + session + ")");
      }
      java.util.Random rng = GameModule.getGameModule().getRNG();
      int[] d = new int[count];
      for (int i = 0; i < count; i++) {
        d[i] = rng.nextInt(6) + 1;
      }
      rolls.add(new Roll(purpose, d));
      return d;
    }
  }

  /** A DR for each purpose, in order, each recorded for the chat as {@link #roll} records it. */
  int[][] rollMany(long sessionId, List<String> purposes) {
    synchronized (rollLock) {
      if (sessionId != session) {
        throw new IllegalStateException("roll session " + sessionId + " is over (current: " + session + ")");
      }
      int[][] out = new int[purposes.size()][];
      for (int i = 0; i < out.length; i++) {
        out[i] = roll(sessionId, purposes.get(i), 2);
      }
      return out;
    }
  }

  List<Roll> rollsOf(Object sessionObj) throws Batch.Refused {
    synchronized (rollLock) {
      if (sessionObj == null) {
        return Collections.emptyList();
      }
      if (!(sessionObj instanceof Number) || ((Number) sessionObj).longValue() != session) {
        throw new Batch.Refused("roll session " + sessionObj + " is not the current one (" + session
            + "): its dice were replaced by newer rolls; nothing was changed");
      }
      return new ArrayList<>(rolls);
    }
  }

  void consumeSession(Object sessionObj) {
    if (sessionObj != null) {
      synchronized (rollLock) {
        session++;
        rolls.clear();
      }
    }
  }

  // --- Python callbacks -------------------------------------------------------------------

  void setListener(PythonListener l) {
    setListener(l, null);
  }

  /** {@code who}: the Python behind {@code l}, as {@link BridgeApi#setListenerOf} names it (null: not told). */
  void setListener(PythonListener l, String who) {
    boolean was;
    synchronized (listenerLock) {
      was = listener != null;
      listener = l;
      listenerWho = l == null ? null : who;
      showConnected();
    }
    if (l != null) {
      listenerSince = System.currentTimeMillis();
      VaslTerrain.prepareInBackground(null);  // the first press then finds VASL's terrain read
    }
    connectionChanged(was, l != null, null);
  }

  /** Python behind {@code l} stopped answering: dropped, if it is still the listener; false if it was not. */
  boolean lostListener(PythonListener l, String why) {
    synchronized (listenerLock) {
      if (l == null || listener != l) {
        return false;
      }
      listener = null;
      showConnected();
    }
    wasLost = true;
    connectionChanged(true, false, why);
    return true;
  }

  /** One of Python's connections to the gateway closed: check at once whether Python is still there. */
  void pythonConnectionClosed() {
    connectionWatch.poke();
  }

  /**
   * The toolbar's state, and one local chat line when Python goes away, and when it comes back after it stopped
   * answering (a Python that said goodbye introduces itself when it starts again).
   */
  private void connectionChanged(boolean was, boolean now, String why) {
    if (was && !now) {
      say("- ASL fire bridge: Python disconnected" + (why == null ? "" : " (" + why + ")") + "; " + startHint() + ".");
    }
    else if (!was && now && wasLost) {
      wasLost = false;
      say("- ASL fire bridge: Python is back; the fire actions work again.");
    }
  }

  /** The toolbar shows the listener's state; called holding listenerLock, so the last change is the one shown. */
  private void showConnected() {
    FireToolbar t = toolbar;
    if (t != null) {
      t.showConnected(listener != null);
    }
  }

  /** Whether the toolbar shows Python connected. */
  boolean connectedShown() {
    FireToolbar t = toolbar;
    return t != null && t.isConnectedShown();
  }

  /**
   * Marks on the map (locally) the pieces an applied batch placed or changed and where those it removed were. Runs
   * on the Swing thread.
   */
  void markChanged(java.util.Collection<String> pieceIds, List<ChangeMarks.Spot> removed) {
    marks.mark(pieceIds, removed);
    risk.soon();
  }

  ChangeMarks getMarks() {
    return marks;
  }

  PythonListener getListener() {
    return listener;
  }

  AutoStart getAutoStart() {
    return autoStart;
  }

  /** Whether a Python connected at or after {@code since} (ms) and is still connected. */
  boolean connectedSince(long since) {
    return listener != null && listenerSince >= since;
  }

  /** Whether a Python connected at or after {@code since} (ms), connected still or not. */
  boolean connectedAfter(long since) {
    return listenerSince >= since;
  }

  /**
   * The bridge process {@code who} the extension started at {@code started} (ms) ended: its listener, if it is the
   * current one, is gone (a Python that did not say who it is: the listener set since it started).
   */
  void pythonGone(long started, String who) {
    boolean its;
    synchronized (listenerLock) {
      its = listener != null && (listenerWho == null ? listenerSince >= started : listenerWho.equals(who));
    }
    if (its) {
      setListener(null);
    }
  }

  void notConnected() {
    say("- ASL fire bridge: Python is not connected: " + startHint() + ", then press again.");
  }

  /** How the player gets Python back: the extension starts it by itself, unless its preference is off. */
  static String startHint() {
    return AutoStart.enabled()
        ? "the extension starts it again at the next fire action (its log: Preferences, tab \"" + BridgePrefs.TAB
            + "\")"
        : "start \"asl-fire bridge\", or turn on \"Start the fire bridge with a game\" in Preferences, tab \""
            + BridgePrefs.TAB + "\"";
  }

  static void say(String text) {
    SwingUtilities.invokeLater(() -> {
      GameModule gm = GameModule.getGameModule();
      if (gm != null && gm.getChatter() != null) {
        gm.getChatter().show(text);
      }
    });
  }

  PhaseWatch getPhaseWatch() {
    return phaseWatch;
  }

  /** Tells Python of an event (not a button: no chat line when Python is absent or busy); false if not told. */
  boolean notifyPython(String event) {
    final PythonListener l = listener;
    if (l == null || !busy.compareAndSet(false, true)) {
      return false;
    }
    Thread t = new Thread(() -> {
      try {
        String msg = l.onButton(event);
        if (msg != null && !msg.isEmpty()) {
          say("- " + msg);
        }
      }
      catch (RuntimeException e) {
        lostListener(l, "it did not answer the " + event + " event");
      }
      finally {
        busy.set(false);
      }
    }, "aslfire-event-" + event);
    t.setDaemon(true);
    t.start();
    return true;
  }

  /** The hot key of the Fire risk layer's toggle. */
  static final javax.swing.KeyStroke RISK_KEY = javax.swing.KeyStroke.getKeyStroke(java.awt.event.KeyEvent.VK_R,
      java.awt.event.InputEvent.CTRL_DOWN_MASK | java.awt.event.InputEvent.ALT_DOWN_MASK);

  RiskLayer getRisk() {
    return risk;
  }

  /** The Fire risk layer on or off (this player's view only: no Command). */
  void toggleRisk() {
    SwingUtilities.invokeLater(() -> {
      risk.toggle();
      showRisk();
    });
  }

  /** The toolbar's tick follows the layer (on the Swing thread). */
  void showRisk() {
    FireToolbar t = toolbar;
    if (t != null) {
      t.showRisk(risk.isOn());
    }
  }

  /** A toolbar button: ask Python, off the Swing thread (Python calls back into VASSAL). */
  void pressed(String action) {
    if (RiskLayer.EVENT.equals(action)) {
      toggleRisk();
      return;
    }
    final PythonListener l = listener;
    if (l == null) {
      SwingUtilities.invokeLater(marks::clear);  // what the last action changed stays marked until the next
      if (autoStart == null || !autoStart.press(action)) {
        notConnected();
      }
      return;
    }
    if (!busy.compareAndSet(false, true)) {
      say("- ASL fire bridge: still working on the previous button; press again when it is done.");
      return;
    }
    // the last action's marks go when this one's batch marks what it changed, or when it ends without one: a
    // repaint of the whole map now would hold the Swing thread ahead of this press's snapshot
    final long marked = marks.generation();
    Thread t = new Thread(() -> {
      try {
        String msg = l.onButton(action);
        if (msg != null && !msg.isEmpty()) {
          say("- " + msg);
        }
      }
      catch (RuntimeException e) {
        lostListener(l, "it did not answer the " + action + " button: " + e.getClass().getSimpleName());
      }
      finally {
        SwingUtilities.invokeLater(() -> marks.clearIfStill(marked));
        busy.set(false);
      }
    }, "aslfire-button-" + action);
    t.setDaemon(true);
    t.start();
  }
}
