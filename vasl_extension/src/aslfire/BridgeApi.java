package aslfire;

/**
 * What Python may call through py4j (the gateway's entry point). Every call
 * that touches the game runs on VASSAL's Swing thread with a timeout;
 * refusals and errors come back as messages, never as a hang.
 */
public final class BridgeApi {
  private final FireBridge bridge;

  BridgeApi(FireBridge bridge) {
    this.bridge = bridge;
  }

  public String version() {
    return FireBridge.VERSION;
  }

  /**
   * The module file VASSAL opened (its DataArchive: the VASL.vmod), null if none: Python reads its
   * buildFile once to know the module's counters.
   */
  public String modulePath() {
    VASSAL.build.GameModule gm = VASSAL.build.GameModule.getGameModule();
    if (gm == null || gm.getDataArchive() == null || gm.getDataArchive().getArchive() == null) {
      return null;
    }
    return gm.getDataArchive().getName();
  }

  /** The whole visible game as one JSON string ({"error": …} if it cannot be read). */
  public String snapshot(boolean withTerrain) {
    try {
      if (withTerrain) {
        VaslTerrain.prepare(null);  // VASL's model read in slices of the Swing thread, not in one hold
      }
      Snapshot.prepare(null);  // and the pieces' JSON, the first time
      return Edt.call(() -> Snapshot.build(bridge, withTerrain), FireBridge.EDT_TIMEOUT_MS, "snapshot");
    }
    catch (Edt.EdtFailure e) {
      return "{\"error\":" + Json.quote(e.getMessage()) + "}";
    }
  }

  public String snapshot() {
    return snapshot(true);
  }

  /**
   * As {@link #snapshot(boolean)}, with layers only for pieces whose gpid or basic name is listed
   * ({@code layersFor} is a JSON list of strings).
   */
  public String snapshot(boolean withTerrain, String layersFor) {
    return snapshot(withTerrain, layersFor, null);
  }

  /**
   * As {@link #snapshot(boolean, String)}; a map whose {@code terrain_key} is {@code knownTerrain} (terrain the
   * caller already read, boards unchanged) gets {@code "terrain": {"key": …, "same": true}} without its hexes.
   */
  /**
   * As {@link #snapshot(boolean, String, String)}, gzipped: py4j moves a long string slowly (about half a second for
   * a 3,000-piece game), its compressed bytes quickly.
   */
  public byte[] snapshotGz(boolean withTerrain, String layersFor, String knownTerrain) {
    return gzip(snapshot(withTerrain, layersFor, knownTerrain, -1L));
  }

  /**
   * As {@link #snapshotGz}, with only the pieces changed since the caller's generation {@code since} (what the
   * last such call returned; {@code -1}: all of them, as after Undo of the caller's state, a load or a reconnect):
   * see {@code Snapshot.build}. The answer's {@code "generation"} is the one to pass next time.
   */
  public byte[] snapshotSinceGz(boolean withTerrain, String layersFor, String knownTerrain, long since) {
    return gzip(snapshot(withTerrain, layersFor, knownTerrain, since < 0 ? Long.MAX_VALUE : since));
  }

  private static byte[] gzip(String json) {
    byte[] text = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length / 6 + 64);
    try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(out, 1 << 16) {
      {
        def.setLevel(java.util.zip.Deflater.BEST_SPEED);
      }
    }) {
      gz.write(text);
    }
    catch (java.io.IOException e) {
      throw new IllegalStateException(e);  // a ByteArrayOutputStream does not fail
    }
    return out.toByteArray();
  }

  public String snapshot(boolean withTerrain, String layersFor, String knownTerrain) {
    return snapshot(withTerrain, layersFor, knownTerrain, -1L);
  }

  private String snapshot(boolean withTerrain, String layersFor, String knownTerrain, long since) {
    java.util.Set<String> only = new java.util.HashSet<>();
    try {
      Object o = Json.parse(layersFor);
      if (o instanceof java.util.List) {
        for (Object x : (java.util.List<?>) o) {
          only.add(String.valueOf(x));
        }
      }
      else {
        return "{\"error\":\"layersFor must be a JSON list of gpids or names\"}";
      }
    }
    catch (Json.JsonError e) {
      return "{\"error\":" + Json.quote("layersFor is not JSON: " + e.getMessage()) + "}";
    }
    try {
      if (withTerrain) {
        VaslTerrain.prepare(knownTerrain);  // VASL's model read in slices of the Swing thread, not in one hold
      }
      Snapshot.prepare(only);  // and the pieces' JSON, the first time
      return Edt.call(() -> Snapshot.build(bridge, withTerrain, only, knownTerrain, since), FireBridge.EDT_TIMEOUT_MS,
          "snapshot");
    }
    catch (Edt.EdtFailure e) {
      return "{\"error\":" + Json.quote(e.getMessage()) + "}";
    }
  }

  /** Forgets the terrain the extension keeps per board set: the next snapshot reads VASL's model again (bench). */
  public void forgetTerrain() throws Edt.EdtFailure {
    Edt.call(() -> {
      VaslTerrain.forget();
      return null;
    }, FireBridge.EDT_TIMEOUT_MS, "forgetTerrain");
  }

  /** Game status only: started, room, processed phase, whether changes are allowed. */
  public String status() {
    try {
      return Edt.call(() -> {
        StringBuilder sb = new StringBuilder();
        bridge.appendGameStatus(sb);
        return sb.toString();
      }, FireBridge.EDT_TIMEOUT_MS, "status");
    }
    catch (Edt.EdtFailure e) {
      return "{\"error\":" + Json.quote(e.getMessage()) + "}";
    }
  }

  /** Applies a batch; returns {"ok": true, …} or {"ok": false, "error": "…"}. */
  public String apply(String batchJson) {
    try {
      Batch.Ready ready = Batch.prepare(batchJson);  // its counters cloned in slices of the Swing thread
      return Edt.call(() -> {
        try {
          return Batch.apply(bridge, batchJson, ready);
        }
        catch (Batch.Refused r) {
          return "{\"ok\":false,\"error\":" + Json.quote(r.getMessage()) + "}";
        }
      }, FireBridge.EDT_TIMEOUT_MS, "apply");
    }
    catch (Edt.EdtFailure e) {
      return "{\"ok\":false,\"error\":" + Json.quote(e.getMessage()) + "}";
    }
  }

  /** Starts the rolls of one phase; returns the session id a batch must name. */
  public long newRollSession() {
    return bridge.newSession();
  }

  /** Rolls {@code count} dice (1 = dr, 2 = DR, colored first) with VASSAL's RNG, recorded for the chat. */
  public String roll(long session, String purpose, int count) {
    int[] d = bridge.roll(session, purpose, count);
    return count == 1 ? Integer.toString(d[0]) : d[0] + "," + d[1];
  }

  /**
   * A DR for each purpose of a JSON list, in order, with VASSAL's RNG, each recorded for the chat as {@link #roll}
   * records it: {@code "c,w;c,w;…"}. For rolls none of which decides whether another is made (one call, not one each).
   */
  public String rollMany(long session, String purposesJson) {
    java.util.List<String> purposes = new java.util.ArrayList<>();
    Object o;
    try {
      o = Json.parse(purposesJson);
    }
    catch (Json.JsonError e) {
      throw new IllegalArgumentException("purposes is not JSON: " + e.getMessage());
    }
    if (!(o instanceof java.util.List)) {
      throw new IllegalArgumentException("purposes must be a JSON list of strings");
    }
    for (Object x : (java.util.List<?>) o) {
      purposes.add(String.valueOf(x));
    }
    StringBuilder sb = new StringBuilder();
    for (int[] d : bridge.rollMany(session, purposes)) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      sb.append(d[0]).append(',').append(d[1]);
    }
    return sb.toString();
  }

  /** Python's callback server listens on {@code port} (127.0.0.1, same token). */
  public void setCallbackPort(int port) {
    Gateway g = bridge.getGateway();
    if (g != null) {
      g.resetCallback(port);
    }
  }

  public void setListener(PythonListener l) {
    bridge.setListener(l);
  }

  /**
   * The listener of one Python: {@code who} is the ASLFIRE_BRIDGE_ID the extension gave a bridge it started, else
   * "pid N" (so that the end of the extension's bridge drops its own listener, and no other).
   */
  public void setListenerOf(PythonListener l, String who) {
    bridge.setListener(l, who);
  }

  /**
   * A bridge started from a terminal ({@code who}, as in {@link #setListenerOf}) connected while the extension's own
   * ran: the extension's is stopped, not restarted. Its pid, or -1 if none ran.
   */
  public long handOver(String who) {
    AutoStart a = bridge.getAutoStart();
    return a == null ? -1 : a.process().handOver(who);
  }

  public void clearListener() {
    bridge.setListener(null);
  }

  public boolean hasListener() {
    return bridge.getListener() != null;
  }

  /** Whether the toolbar shows Python connected (what the player sees). */
  public boolean connectedShown() {
    return bridge.connectedShown();
  }

  /** The ids of the pieces outlined on the map as placed or changed by the last fire action, as a JSON list. */
  public String marked() {
    return jsonList(bridge.getMarks().marked());
  }

  /**
   * Where the counters the last fire action removed were (outlined dashed), as a JSON list of
   * {"map", "x", "y", "width", "height"} (map coordinates).
   */
  public String markedGone() {
    StringBuilder sb = new StringBuilder("[");
    for (ChangeMarks.Spot s : bridge.getMarks().goneSpots()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append("{\"map\":");
      Json.quote(sb, s.map.getMapName());
      sb.append(",\"x\":").append(s.bounds.x).append(",\"y\":").append(s.bounds.y).append(",\"width\":")
        .append(s.bounds.width).append(",\"height\":").append(s.bounds.height).append('}');
    }
    return sb.append(']').toString();
  }

  private static String jsonList(java.util.List<String> items) {
    StringBuilder sb = new StringBuilder("[");
    for (String s : items) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      Json.quote(sb, s);
    }
    return sb.append(']').toString();
  }

  /**
   * The bridge process the extension started (if any): JSON {@code {"enabled", "running", "pid", "restarts",
   * "python", "decided"}} ({@code decided}: how many times it has decided whether to start one).
   */
  public String autoStartStatus() {
    AutoStart a = bridge.getAutoStart();
    if (a == null) {
      return "{\"enabled\":false,\"running\":false,\"pid\":-1,\"restarts\":0,\"python\":null,\"decided\":0}";
    }
    BridgeProcess p = a.process();
    return "{\"enabled\":" + AutoStart.enabled() + ",\"running\":" + p.running() + ",\"pid\":" + p.pid()
        + ",\"restarts\":" + p.restarts() + ",\"python\":" + Json.quote(p.python()) + ",\"decided\":"
        + a.decided() + "}";
  }

  /**
   * Watches the counters with these gpids or BasicPiece names (comma separated; "" stops): each change of their
   * states is sent to the listener as the event "phase-track".
   */
  public void watch(String gpidsOrNames) {
    java.util.Set<String> w = new java.util.HashSet<>();
    for (String s : gpidsOrNames.split(",")) {
      if (!s.trim().isEmpty()) {
        w.add(s.trim());
      }
    }
    bridge.getPhaseWatch().watch(w);
  }

  /**
   * Shows a small dialog Python describes (JSON: title, fields) and waits for the player: the answers as a JSON
   * object, or null when the player cancelled.
   */
  public String askForm(String specJson) throws Exception {
    return FormDialog.ask(specJson);
  }

  /**
   * Shows a dialog Python describes (as {@link #askForm}) without waiting: its id, for {@link #pollForm}. No py4j
   * call stays open while the player thinks, so a read timeout never cuts the answer off.
   */
  public String openForm(String specJson) throws Exception {
    return FormDialog.open(specJson);
  }

  /**
   * The dialog's state after waiting at most {@code waitMs} milliseconds (at most 10 s): JSON {"state": "open",
   * "answered" (with "answers"), "cancelled" or "gone"}. A dialog not asked about for a while closes itself.
   */
  public String pollForm(String id, int waitMs) throws Exception {
    return FormDialog.poll(id, waitMs);
  }

  /**
   * Marks the phase {@code key} (e.g. "PT3 AFPh") prompted in the game, showing {@code line} in every player's chat
   * ("" for none): false if it was marked already, by this bridge or the other player's (see {@link PromptMark}).
   */
  public boolean markPrompted(String key, String line) throws Edt.EdtFailure {
    return Edt.call(() -> bridge.markPrompted(key, line), FireBridge.EDT_TIMEOUT_MS, "markPrompted");
  }

  /** Presses a toolbar button as a player would (for scripts and tests). */
  public void press(String action) {
    bridge.pressed(action);
  }

  /**
   * The Fire risk layer's numbers, from Python (see {@link RiskLayer#set}); drawn on this player's map only. Returns
   * {"ok": true} or {"ok": false, "error": "…"}.
   */
  public String setRiskLayer(String json) {
    try {
      return Edt.call(() -> {
        try {
          bridge.getRisk().set(Batch.obj(Json.parse(json), "risk layer"));
          return "{\"ok\":true}";
        }
        catch (Batch.Refused | Json.JsonError r) {
          return "{\"ok\":false,\"error\":" + Json.quote(r.getMessage()) + "}";
        }
      }, FireBridge.EDT_TIMEOUT_MS, "setRiskLayer");
    }
    catch (Edt.EdtFailure e) {
      return "{\"ok\":false,\"error\":" + Json.quote(e.getMessage()) + "}";
    }
  }

  /** The Fire risk layer's mode, from the preferences: {"mode": "afph" or "forecast", "turns", "trials"}. */
  public String riskMode() {
    return BridgePrefs.riskMode();
  }

  /** Python could not compute the Fire risk layer: {@code why} is shown in its legend. */
  public void riskLayerFailed(String why) {
    javax.swing.SwingUtilities.invokeLater(() -> bridge.getRisk().failed(why));
  }

  /**
   * The Fire risk layer as drawn: {"on", "status", "updates", "draw_us" (its longest draw since), "shades": [{"map",
   * "x", "y", "chance", "label", "tip"}]} (map coordinates).
   */
  public String riskLayer() throws Edt.EdtFailure {
    return Edt.call(() -> {
      RiskLayer r = bridge.getRisk();
      StringBuilder sb = new StringBuilder("{\"on\":").append(r.isOn()).append(",\"status\":");
      Json.quote(sb, r.status());
      sb.append(",\"updates\":").append(r.updates()).append(",\"draw_us\":").append(r.drawMicros())
        .append(",\"shades\":[");
      boolean first = true;
      for (RiskLayer.Shade s : r.shades()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        sb.append("{\"map\":");
        Json.quote(sb, s.map.getMapName());
        sb.append(",\"x\":").append(s.centre.x).append(",\"y\":").append(s.centre.y).append(",\"chance\":")
          .append(s.chance).append(",\"label\":");
        Json.quote(sb, s.label);
        sb.append(",\"tip\":");
        Json.quote(sb, s.tip);
        sb.append('}');
      }
      return sb.append("]}").toString();
    }, FireBridge.EDT_TIMEOUT_MS, "riskLayer");
  }

  /** Shows a line in this player's chat window only (not sent, not logged). */
  public void say(String text) {
    FireBridge.say(text);
  }

  /** The ids of the visible pieces selected on the map (VASSAL's KeyBuffer), as a JSON list. */
  public String selection() {
    try {
      return Edt.call(() -> {
        StringBuilder sb = new StringBuilder("[");
        boolean first = true;
        for (VASSAL.counters.GamePiece p : VASSAL.counters.KeyBuffer.getBuffer().asList()) {
          if (p instanceof VASSAL.counters.Stack || !Snapshot.isVisible(p)) {
            continue;
          }
          if (!first) {
            sb.append(',');
          }
          first = false;
          Json.quote(sb, p.getId());
        }
        return sb.append(']').toString();
      }, FireBridge.EDT_TIMEOUT_MS, "selection");
    }
    catch (Edt.EdtFailure e) {
      return "{\"error\":" + Json.quote(e.getMessage()) + "}";
    }
  }

  /** Names and ids of every visible piece (for comparing with per-piece calls). */
  public String[] pieceIds() throws Edt.EdtFailure {
    return Edt.call(() -> {
      java.util.List<String> ids = new java.util.ArrayList<>();
      for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        for (VASSAL.counters.GamePiece p : Snapshot.visiblePieces(m)) {
          ids.add(p.getId());
        }
      }
      return ids.toArray(new String[0]);
    }, FireBridge.EDT_TIMEOUT_MS, "pieceIds");
  }

  /** One piece's property (the slow, call-by-call way; the bench compares it with one snapshot). */
  public String pieceProperty(String id, String key) {
    VASSAL.counters.GamePiece p = VASSAL.build.GameModule.getGameModule().getGameState().getPieceForId(id);
    if (p == null || !Snapshot.isVisible(p)) {
      return null;
    }
    Object v = p.getProperty(key);
    return v == null ? null : v.toString();
  }
}
