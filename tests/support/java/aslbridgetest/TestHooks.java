package aslbridgetest;

import java.lang.reflect.Method;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.chat.ChatServerConnection;
import VASSAL.chat.HybridClient;
import VASSAL.chat.Room;
import VASSAL.chat.SimpleRoom;

/** Test support: a player's clicks, called from Python through py4j. Never shipped. */
public final class TestHooks {
  private TestHooks() {
  }

  private static <T> T onEdt(java.util.concurrent.Callable<T> c) throws Exception {
    FutureTask<T> t = new FutureTask<>(c);
    SwingUtilities.invokeLater(t);
    return t.get(20, TimeUnit.SECONDS);
  }

  /** Connects to a VASSAL node server (host, port) and joins {@code room} ("Main Room" stays in the lobby). */
  public static String connect(String host, int port, String room) throws Exception {
    onEdt(() -> {
      GameModule gm = GameModule.getGameModule();
      ChatServerConnection conn = new VASSAL.chat.node.PrivateNodeClient(gm.getGameName(),
          GameModule.getUserId() + "." + System.currentTimeMillis(), gm, host, port);
      // what NodeClientFactory.buildServer adds: incoming game commands are decoded and executed
      conn.addPropertyChangeListener(ChatServerConnection.INCOMING_MSG, new VASSAL.chat.CommandDecoder());
      HybridClient h = (HybridClient) gm.getServer();
      h.setDelegate(conn);
      conn.setConnected(true);
      return null;
    });
    long end = System.currentTimeMillis() + 15000;
    while (System.currentTimeMillis() < end && !Boolean.TRUE.equals(onEdt(() -> GameModule.getGameModule().getServer().isConnected()))) {
      Thread.sleep(100);
    }
    end = System.currentTimeMillis() + 15000;
    while (System.currentTimeMillis() < end && roomName().isEmpty()) {
      Thread.sleep(100);
    }
    if (room != null && !room.equals(roomName())) {
      return joinRoom(room);
    }
    return roomName();
  }

  public static String roomName() throws Exception {
    return onEdt(() -> {
      ChatServerConnection c = (ChatServerConnection) GameModule.getGameModule().getServer();
      if (!c.isConnected()) {
        return "";
      }
      Room r = c.getRoom();
      return r == null ? "" : r.getName();
    });
  }

  /** VASSAL's Undo button: undoes the last command this player sent (and tells the others). */
  public static void undo() throws Exception {
    onEdt(() -> {
      BasicLogger log = (BasicLogger) GameModule.getGameModule().getLogger();
      Method m = BasicLogger.class.getDeclaredMethod("undo");
      m.setAccessible(true);
      m.invoke(log);
      return null;
    });
  }

  /**
   * A player's click on the toolbar button or toolbar menu item named {@code name} (the extension's fire actions are
   * the items "aslfire-ACTION" of the menu its button "aslfire-menu" opens).
   */
  public static boolean clickToolbar(String name) throws Exception {
    return onEdt(() -> {
      javax.swing.AbstractButton b = toolbarButton(name);
      if (b == null) {
        return false;
      }
      b.doClick();
      return true;
    });
  }

  private static final String MENU_PROPERTY = "ToolbarMenu.popup";

  private static javax.swing.AbstractButton toolbarButton(String name) {
    for (java.awt.Component c : GameModule.getGameModule().getToolBar().getComponents()) {
      if (!(c instanceof javax.swing.AbstractButton)) {
        continue;
      }
      if (name.equals(c.getName())) {
        return (javax.swing.AbstractButton) c;
      }
      Object menu = ((javax.swing.JComponent) c).getClientProperty(MENU_PROPERTY);
      if (menu instanceof javax.swing.JPopupMenu) {
        for (java.awt.Component i : ((javax.swing.JPopupMenu) menu).getComponents()) {
          if (name.equals(i.getName()) && i instanceof javax.swing.AbstractButton) {
            return (javax.swing.AbstractButton) i;
          }
        }
      }
    }
    return null;
  }

  /**
   * What a player sees of the extension on the toolbar: one line per visible toolbar component named "aslfire…",
   * then one per item of its menu, indented by a tab; each line is name, text, tooltip, icon size ("16x16" or "-"),
   * "enabled"/"disabled", tab-separated.
   */
  public static String toolbarReport() throws Exception {
    return onEdt(() -> {
      StringBuilder sb = new StringBuilder();
      for (java.awt.Component c : GameModule.getGameModule().getToolBar().getComponents()) {
        if (c.getName() == null || !c.getName().startsWith("aslfire") || !c.isVisible()) {
          continue;
        }
        describe(sb, "", c);
        Object menu = c instanceof javax.swing.JComponent
            ? ((javax.swing.JComponent) c).getClientProperty(MENU_PROPERTY) : null;
        if (menu instanceof javax.swing.JPopupMenu) {
          for (java.awt.Component i : ((javax.swing.JPopupMenu) menu).getComponents()) {
            describe(sb, "\t", i);
          }
        }
      }
      return sb.toString();
    });
  }

  private static void describe(StringBuilder sb, String indent, java.awt.Component c) {
    String text = c instanceof javax.swing.AbstractButton ? ((javax.swing.AbstractButton) c).getText() : "";
    String tip = c instanceof javax.swing.JComponent ? ((javax.swing.JComponent) c).getToolTipText() : null;
    javax.swing.Icon icon = c instanceof javax.swing.AbstractButton ? ((javax.swing.AbstractButton) c).getIcon() : null;
    sb.append(indent).append(c.getName()).append('\t').append(text).append('\t').append(tip == null ? "" : tip)
      .append('\t').append(icon == null ? "-" : icon.getIconWidth() + "x" + icon.getIconHeight())
      .append('\t').append(c.isEnabled() ? "enabled" : "disabled").append('\n');
  }

  /** How many commands this player's VASSAL has logged in this game (BasicLogger's log: Undo's and the saved log's). */
  public static int loggedCommands() throws Exception {
    return onEdt(() -> {
      java.lang.reflect.Field f = BasicLogger.class.getDeclaredField("logOutput");
      f.setAccessible(true);
      return ((java.util.List<?>) f.get(GameModule.getGameModule().getLogger())).size();
    });
  }

  /** The mouse moved onto the toolbar button or open menu item {@code name} (its tooltip shows); false if hidden. */
  public static boolean hoverToolbar(String name) throws Exception {
    java.awt.Point at = onEdt(() -> {
      javax.swing.AbstractButton b = toolbarButton(name);
      if (b == null || !b.isShowing()) {
        return null;
      }
      java.awt.Point p = b.getLocationOnScreen();
      return new java.awt.Point(p.x + b.getWidth() / 2, p.y + b.getHeight() / 2);
    });
    if (at == null) {
      return false;
    }
    java.awt.Robot r = new java.awt.Robot();
    r.mouseMove(at.x - 3, at.y);
    r.mouseMove(at.x, at.y);
    return true;
  }

  private static VASSAL.build.module.ToolbarMenu folded;

  /**
   * A module's own ToolbarMenu listing {@code entry} on the main toolbar (as a module designer or a player's module
   * might), or, with {@code entry} null, that menu taken away again. Returns the ToolbarMenu's entries: one line per
   * submenu, its text then its items' texts, tab-separated.
   */
  public static String toolbarMenu(String entry) throws Exception {
    onEdt(() -> {
      GameModule gm = GameModule.getGameModule();
      if (entry == null) {
        if (folded != null) {
          folded.setAttribute(VASSAL.build.module.ToolbarMenu.MENU_ITEMS, "");
        }
      }
      else {
        folded = new VASSAL.build.module.ToolbarMenu();
        folded.setAttribute(VASSAL.build.module.ToolbarMenu.MENU_ITEMS, entry);
        folded.addTo(gm);
      }
      return null;
    });
    return onEdt(() -> {  // after the ToolbarMenu's own (queued) build
      if (entry == null && folded != null) {
        folded.removeFrom(GameModule.getGameModule());
        folded = null;
        GameModule.getGameModule().getToolBar().revalidate();
        GameModule.getGameModule().getToolBar().repaint();
        return "";
      }
      Object menu = folded.getLaunchButton().getClientProperty(VASSAL.build.module.ToolbarMenu.MENU_PROPERTY);
      StringBuilder sb = new StringBuilder();
      for (java.awt.Component c : ((javax.swing.JPopupMenu) menu).getComponents()) {
        if (c instanceof javax.swing.JMenu) {
          javax.swing.JMenu sub = (javax.swing.JMenu) c;
          sb.append(sub.getText());
          for (int i = 0; i < sub.getItemCount(); i++) {
            sb.append('\t').append(sub.getItem(i).getText());
          }
          sb.append('\n');
        }
      }
      return sb.toString();
    });
  }

  /** Scrolls the piece {@code id}'s map so that the piece is in the middle of the view (screenshots); false if the
   * piece is on no map. */
  public static boolean centerOn(String id) throws Exception {
    return onEdt(() -> {
      VASSAL.counters.GamePiece p = GameModule.getGameModule().getGameState().getPieceForId(id);
      if (p == null || p.getMap() == null) {
        return false;
      }
      p.getMap().centerAt(p.getPosition());
      return true;
    });
  }

  /** Opens (true) or closes the menu of the toolbar button {@code name}, as a player's click does (screenshots). */
  public static boolean showToolbarMenu(String name, boolean open) throws Exception {
    return onEdt(() -> {
      javax.swing.AbstractButton b = toolbarButton(name);
      Object menu = b == null ? null : b.getClientProperty(MENU_PROPERTY);
      if (!(menu instanceof javax.swing.JPopupMenu)) {
        return false;
      }
      if (open) {
        ((javax.swing.JPopupMenu) menu).show(b, 0, b.getHeight());
      }
      else {
        ((javax.swing.JPopupMenu) menu).setVisible(false);
      }
      return true;
    });
  }

  /**
   * How many pixels of the colour {@code rgb} the map's view paints within {@code margin} pixels around the piece
   * {@code id} (the map painted into an image as it paints on screen); -1 if the piece is on no map.
   */
  public static int pixelsAround(String id, int rgb, int margin) throws Exception {
    return onEdt(() -> {
      VASSAL.counters.GamePiece p = GameModule.getGameModule().getGameState().getPieceForId(id);
      if (p == null || p.getMap() == null) {
        return -1;
      }
      return countPixels(p.getMap(), p.getMap().selectionBoundsOf(p), rgb, margin);
    });
  }

  /** As {@link #pixelsAround}, around the rectangle (x, y, w, h) of the first map (map coordinates). */
  public static int pixelsAt(int x, int y, int w, int h, int rgb, int margin) throws Exception {
    return onEdt(() -> countPixels(VASSAL.build.module.Map.getMapList().get(0), new java.awt.Rectangle(x, y, w, h),
        rgb, margin));
  }

  private static int countPixels(VASSAL.build.module.Map map, java.awt.Rectangle mapRect, int rgb, int margin) {
    javax.swing.JComponent view = map.getView();
    java.awt.Rectangle r = map.mapToComponent(mapRect);
    r.grow(margin, margin);
    java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(r.width, r.height,
        java.awt.image.BufferedImage.TYPE_INT_RGB);
    java.awt.Graphics2D g = img.createGraphics();
    g.translate(-r.x, -r.y);
    g.setClip(r);
    view.paint(g);
    g.dispose();
    int n = 0;
    for (int yy = 0; yy < img.getHeight(); yy++) {
      for (int xx = 0; xx < img.getWidth(); xx++) {
        if ((img.getRGB(xx, yy) & 0xFFFFFF) == (rgb & 0xFFFFFF)) {
          n++;
        }
      }
    }
    return n;
  }


  /** Sets one of the module's preferences (as a player does in VASSAL's Preferences window). */
  public static void setPref(String key, boolean value) throws Exception {
    onEdt(() -> {
      GameModule.getGameModule().getPrefs().setValue(key, value);
      return null;
    });
  }

  /** Sets one of the module's preferences to a text or, for a number preference, a whole number. */
  public static void setPrefText(String key, String value) throws Exception {
    onEdt(() -> {
      Object now = GameModule.getGameModule().getPrefs().getValue(key);
      GameModule.getGameModule().getPrefs().setValue(key, now instanceof Integer ? Integer.valueOf(value) : value);
      return null;
    });
  }

  private static java.awt.Component named(java.awt.Container in, String name) {
    for (java.awt.Component c : in.getComponents()) {
      if (name.equals(c.getName())) {
        return c;
      }
      if (c instanceof java.awt.Container) {
        java.awt.Component found = named((java.awt.Container) c, name);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static java.awt.Window openForm() {
    for (java.awt.Window w : java.awt.Window.getWindows()) {
      if (w.isShowing() && "aslfire-form".equals(w.getName())) {
        return w;
      }
    }
    return null;
  }

  /** Whether the extension's dialog ("aslfire-form") is open. */
  public static boolean formOpen() throws Exception {
    return onEdt(() -> openForm() != null);
  }

  /** A player's typing in the open dialog: field {@code key} set to {@code value} (text, choice or "true"). */
  public static void setFormField(String key, String value) throws Exception {
    onEdt(() -> {
      java.awt.Component c = named(openForm(), "aslfire-form-" + key);
      if (c instanceof javax.swing.JCheckBox) {
        ((javax.swing.JCheckBox) c).setSelected(Boolean.parseBoolean(value));
      }
      else if (c instanceof javax.swing.JComboBox) {
        ((javax.swing.JComboBox<?>) c).setSelectedItem(value);
      }
      else if (c instanceof javax.swing.JTextField) {
        ((javax.swing.JTextField) c).setText(value);
      }
      else {
        throw new IllegalArgumentException("no field " + key + " in the open dialog");
      }
      return null;
    });
  }

  /** What the open dialog's field {@code key} shows (text, choice, or "true"/"false"). */
  public static String formField(String key) throws Exception {
    return onEdt(() -> {
      java.awt.Component c = named(openForm(), "aslfire-form-" + key);
      if (c instanceof javax.swing.JCheckBox) {
        return String.valueOf(((javax.swing.JCheckBox) c).isSelected());
      }
      if (c instanceof javax.swing.JComboBox) {
        return String.valueOf(((javax.swing.JComboBox<?>) c).getSelectedItem());
      }
      if (c instanceof javax.swing.JTextField) {
        return ((javax.swing.JTextField) c).getText();
      }
      throw new IllegalArgumentException("no field " + key + " in the open dialog");
    });
  }

  /** Whether the open dialog shows field {@code key} now (a field may show only while another has some value). */
  public static boolean formFieldShown(String key) throws Exception {
    return onEdt(() -> {
      java.awt.Component c = named(openForm(), "aslfire-form-" + key);
      if (c == null) {
        throw new IllegalArgumentException("no field " + key + " in the open dialog");
      }
      return c.isShowing();
    });
  }

  /** The choices of the open dialog's choice field {@code key}, one a line. */
  public static String formChoices(String key) throws Exception {
    return onEdt(() -> {
      javax.swing.JComboBox<?> box = (javax.swing.JComboBox<?>) named(openForm(), "aslfire-form-" + key);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < box.getItemCount(); i++) {
        sb.append(box.getItemAt(i)).append('\n');
      }
      return sb.toString();
    });
  }

  /**
   * The chat's messages: how many VASSAL's chat holds (each message one block of the chat's HTML document, as
   * {@code Chatter.show} inserts it), for counting the messages a press adds.
   */
  public static int chatMessages() throws Exception {
    return onEdt(() -> {
      Object chatter = GameModule.getGameModule().getChatter();
      for (Class<?> k = chatter.getClass(); k != null; k = k.getSuperclass()) {
        for (java.lang.reflect.Field f : k.getDeclaredFields()) {
          if (javax.swing.text.JTextComponent.class.isAssignableFrom(f.getType())) {
            f.setAccessible(true);
            javax.swing.text.Document d = ((javax.swing.text.JTextComponent) f.get(chatter)).getDocument();
            return divs(d.getDefaultRootElement());
          }
        }
      }
      return 0;
    });
  }

  private static int divs(javax.swing.text.Element e) {
    int n = "div".equals(e.getName()) ? 1 : 0;
    for (int i = 0; i < e.getElementCount(); i++) {
      n += divs(e.getElement(i));
    }
    return n;
  }

  /**
   * What the player sees: VASSAL's main window (resized to {@code width} pixels wide when {@code width} > 0) and any
   * dialog in front of it, captured from the screen (Xvfb) to the PNG file {@code path}.
   */
  public static void screenshot(String path, int width) throws Exception {
    java.awt.Rectangle area = onEdt(() -> {
      java.awt.Window w = GameModule.getGameModule().getPlayerWindow();
      if (width > 0) {
        w.setBounds(0, 0, width, Math.min(900, w.getGraphicsConfiguration().getBounds().height));
        w.validate();
      }
      java.awt.Rectangle r = w.getBounds();
      for (java.awt.Window o : java.awt.Window.getWindows()) {
        if (o.isShowing() && o != w && o.getOwner() == w) {
          r = r.union(o.getBounds());
        }
      }
      return r;
    });
    Thread.sleep(700);  // the resize painted
    java.awt.image.BufferedImage img = new java.awt.Robot().createScreenCapture(area);
    javax.imageio.ImageIO.write(img, "png", new java.io.File(path));
  }

  /** A player's click on the open dialog's button ("ok" or "cancel"). */
  public static void clickForm(String button) throws Exception {
    onEdt(() -> {
      ((javax.swing.AbstractButton) named(openForm(), "aslfire-form-" + button)).doClick();
      return null;
    });
  }

  /**
   * What a game in progress has run through VASSAL's own code before a player's later press, none of it the
   * extension's: {@code moves} counters from the module's palettes placed on the first map, each reported in the
   * chat as VASSAL reports a move, then deleted (every fourth taken back with Undo instead), the map's view painted
   * after each as VASSAL paints it while players move counters. The game is left as it was. Returns the chat lines
   * shown.
   */
  public static int play(int moves, long seed) throws Exception {
    return onEdt(() -> {
      GameModule gm = GameModule.getGameModule();
      java.util.List<VASSAL.build.widget.PieceSlot> slots =
          gm.getAllDescendantComponentsOf(VASSAL.build.widget.PieceSlot.class);
      VASSAL.build.module.Map map = VASSAL.build.module.Map.getMapList().get(0);
      java.awt.Rectangle area = null;
      for (VASSAL.build.module.map.boardPicker.Board b : map.getBoards()) {
        area = area == null ? b.bounds() : area.union(b.bounds());
      }
      java.util.Random rnd = new java.util.Random(seed);
      BasicLogger log = (BasicLogger) gm.getLogger();
      Method undo = BasicLogger.class.getDeclaredMethod("undo");
      undo.setAccessible(true);
      int lines = 0;
      for (int i = 0; i < moves && !slots.isEmpty() && area != null; i++) {
        VASSAL.counters.GamePiece p = VASSAL.counters.PieceCloner.getInstance()
            .clonePiece(slots.get(rnd.nextInt(slots.size())).getPiece());
        java.awt.Point pt = map.snapTo(new java.awt.Point(area.x + rnd.nextInt(area.width),
            area.y + rnd.nextInt(area.height)));
        VASSAL.command.Command placed = map.placeOrMerge(p, pt);
        VASSAL.command.Command said = new VASSAL.build.module.Chatter.DisplayText(gm.getChatter(),
            "* " + p.getName() + " moves offboard -> " + map.locationName(pt));
        said.execute();
        gm.sendAndLog(placed.append(said));
        paint(map);
        lines++;
        if (i % 4 == 3) {
          undo.invoke(log);
          continue;
        }
        VASSAL.command.Command gone = new VASSAL.command.RemovePiece(p);
        gone.execute();
        VASSAL.command.Command told = new VASSAL.build.module.Chatter.DisplayText(gm.getChatter(),
            "* " + p.getName() + " deleted");
        told.execute();
        gm.sendAndLog(gone.append(told));
        paint(map);
        lines++;
      }
      return lines;
    });
  }

  private static void paint(VASSAL.build.module.Map map) {
    if (map.getView() instanceof javax.swing.JComponent && map.getView().isShowing()) {
      javax.swing.JComponent view = (javax.swing.JComponent) map.getView();
      view.paintImmediately(view.getVisibleRect());
    }
  }

  /** The chat window's text. */
  public static String chatText() throws Exception {
    return onEdt(() -> {
      Object chatter = GameModule.getGameModule().getChatter();
      for (Class<?> k = chatter.getClass(); k != null; k = k.getSuperclass()) {
        for (java.lang.reflect.Field f : k.getDeclaredFields()) {
          if (javax.swing.text.JTextComponent.class.isAssignableFrom(f.getType())) {
            f.setAccessible(true);
            javax.swing.text.Document d = ((javax.swing.text.JTextComponent) f.get(chatter)).getDocument();
            return d.getText(0, d.getLength());
          }
        }
      }
      return "";
    });
  }

  /** Seeds VASSAL's RNG so a test run is reproducible (the dice are still VASSAL's). */
  public static void seedDice(long seed) {
    GameModule.getGameModule().getRNG().setSeed(seed);
  }

  /**
   * Makes VASSAL's RNG give these die faces ("1,6,2") next (then random ones again): the bridge still rolls
   * through {@code GameModule.getRNG()}, the test only chooses what it shows. Never shipped.
   */
  public static void scriptDice(String faces) throws Exception {
    java.lang.reflect.Field f = GameModule.class.getDeclaredField("RNG");
    f.setAccessible(true);
    java.util.Random base = (java.util.Random) f.get(GameModule.getGameModule());
    java.util.Random inner = base instanceof ScriptedRandom ? ((ScriptedRandom) base).inner : base;
    f.set(GameModule.getGameModule(), new ScriptedRandom(inner, faces));
  }

  /** A Random that returns scripted die faces for {@code nextInt(6)}, then defers to the real one. */
  static final class ScriptedRandom extends java.util.Random {
    private static final long serialVersionUID = 1L;
    final java.util.Random inner;
    private final java.util.ArrayDeque<Integer> next = new java.util.ArrayDeque<>();

    ScriptedRandom(java.util.Random inner, String faces) {
      this.inner = inner;
      for (String x : faces.split(",")) {
        if (!x.trim().isEmpty()) {
          next.add(Integer.parseInt(x.trim()));
        }
      }
    }

    @Override
    public synchronized int nextInt(int bound) {
      if (bound == 6 && next != null && !next.isEmpty()) {
        return next.poll() - 1;
      }
      return inner.nextInt(bound);
    }
  }

  /** Selects exactly these pieces (ids separated by commas) on the map (VASSAL's KeyBuffer), as a click would. */
  public static void select(String ids) throws Exception {
    onEdt(() -> {
      VASSAL.counters.KeyBuffer kb = VASSAL.counters.KeyBuffer.getBuffer();
      kb.clear();
      for (String id : ids.split(",")) {
        VASSAL.counters.GamePiece p = GameModule.getGameModule().getGameState().getPieceForId(id);
        if (p != null) {
          kb.add(p);
        }
      }
      return null;
    });
  }

  /** Moves to another room of the connected server (e.g. back to the "Main Room"), retrying until there. */
  public static String joinRoom(String room) throws Exception {
    long end = System.currentTimeMillis() + 30000;
    while (System.currentTimeMillis() < end) {
      onEdt(() -> {
        ChatServerConnection c = (ChatServerConnection) GameModule.getGameModule().getServer();
        c.setRoom(new SimpleRoom(room));
        return null;
      });
      long step = System.currentTimeMillis() + 3000;
      while (System.currentTimeMillis() < step) {
        if (room.equals(roomName())) {
          return room;
        }
        Thread.sleep(100);
      }
    }
    return roomName();
  }

  /** What VASSAL writes into a saved game (the game's restore command, encoded), written to {@code path}. */
  public static void saveGame(String path) throws Exception {
    onEdt(() -> {
      GameModule gm = GameModule.getGameModule();
      java.nio.file.Files.write(java.nio.file.Paths.get(path),
          gm.encode(gm.getGameState().getRestoreCommand()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return null;
    });
  }

  /** The game closed, then the saved game at {@code path} ({@link #saveGame}) decoded and run, as VASSAL opens one. */
  public static void loadGame(String path) throws Exception {
    String saved = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(path)),
        java.nio.charset.StandardCharsets.UTF_8);
    SwingUtilities.invokeLater(() -> {
      GameModule gm = GameModule.getGameModule();
      gm.getGameState().setModified(false);  // saved just before: VASSAL asks nothing when it closes the game
      gm.getGameState().setup(false);
      LOADED.set("closed");
      gm.decode(saved).execute();
      LOADED.set("loaded");
    });
  }

  private static final java.util.concurrent.atomic.AtomicReference<String> LOADED =
      new java.util.concurrent.atomic.AtomicReference<>("");

  /** How far {@link #loadGame} got: "", "closed" (the game closed), "loaded" (the saved game run). */
  public static String loaded() {
    return LOADED.get();
  }

  /** True if the game holds a piece with this id, visible to this player or not. */
  public static boolean hasPiece(String id) throws Exception {
    return onEdt(() -> GameModule.getGameModule().getGameState().getPieceForId(id) != null);
  }

  private static final java.util.List<String> INCOMING = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

  /** Starts recording the raw messages this player receives from the server (debugging aid). */
  public static void recordIncoming() {
    GameModule.getGameModule().getServer().addPropertyChangeListener(ChatServerConnection.INCOMING_MSG,
        e -> INCOMING.add(String.valueOf(e.getNewValue())));
  }

  public static String incoming() {
    synchronized (INCOMING) {
      return String.join("\n", INCOMING);
    }
  }

  // --- the extension's own windows (first-run setup, log), VASSAL's preferences, screenshots ----------------------

  private static java.awt.Window window(String name) {
    for (java.awt.Window w : java.awt.Window.getWindows()) {
      if (w.isShowing() && name.equals(w.getName())) {
        return w;
      }
    }
    return null;
  }

  /** Whether a window (dialog) named {@code name} is showing. */
  public static boolean windowOpen(String name) throws Exception {
    return onEdt(() -> window(name) != null);
  }

  private static void texts(java.awt.Container c, StringBuilder sb) {
    for (java.awt.Component k : c.getComponents()) {
      if (k instanceof javax.swing.text.JTextComponent) {
        sb.append(((javax.swing.text.JTextComponent) k).getText()).append('\n');
      }
      else if (k instanceof javax.swing.JLabel) {
        sb.append(((javax.swing.JLabel) k).getText()).append('\n');
      }
      else if (k instanceof javax.swing.AbstractButton) {
        sb.append('[').append(((javax.swing.AbstractButton) k).getText()).append("]\n");
      }
      if (k instanceof java.awt.Container) {
        texts((java.awt.Container) k, sb);
      }
    }
  }

  /** The texts a player reads in the window named {@code name} (labels, text, [buttons]); "" if none shows. */
  public static String windowText(String name) throws Exception {
    return onEdt(() -> {
      java.awt.Window w = window(name);
      StringBuilder sb = new StringBuilder();
      if (w != null) {
        texts(w, sb);
      }
      return sb.toString();
    });
  }

  private static javax.swing.AbstractButton button(java.awt.Container c, String text) {
    for (java.awt.Component k : c.getComponents()) {
      if (k instanceof javax.swing.AbstractButton && text.equals(((javax.swing.AbstractButton) k).getText())) {
        return (javax.swing.AbstractButton) k;
      }
      if (k instanceof java.awt.Container) {
        javax.swing.AbstractButton b = button((java.awt.Container) k, text);
        if (b != null) {
          return b;
        }
      }
    }
    return null;
  }

  /** A player's click on the button labelled {@code text} in the window named {@code name}; false if none. */
  public static boolean clickWindowButton(String name, String text) throws Exception {
    javax.swing.AbstractButton b = onEdt(() -> {
      java.awt.Window w = window(name);
      return w == null ? null : button(w, text);
    });
    if (b == null) {
      return false;
    }
    SwingUtilities.invokeLater(b::doClick);  // a modal dialog's button: not waited for
    return true;
  }

  /** A player opening a saved game file (VASSAL's File > Open Game). */
  public static void openGame(String path) throws Exception {
    onEdt(() -> {
      GameModule.getGameModule().getGameState().loadGameInBackground(new java.io.File(path));
      return null;
    });
  }

  /** VASSAL's Preferences window, showing the tab {@code tab}. */
  public static void openPreferences(String tab) throws Exception {
    SwingUtilities.invokeLater(() -> GameModule.getGameModule().getPrefs().getEditor().getEditAction()
        .actionPerformed(null));
    long end = System.currentTimeMillis() + 10000;
    while (System.currentTimeMillis() < end) {
      Boolean done = onEdt(() -> {
        javax.swing.JDialog d = GameModule.getGameModule().getPrefs().getEditor().getDialog();
        if (d == null || !d.isShowing()) {
          return false;
        }
        javax.swing.JTabbedPane tabs = findTabs(d.getContentPane());
        if (tabs != null && tabs.indexOfTab(tab) >= 0) {
          tabs.setSelectedIndex(tabs.indexOfTab(tab));
        }
        d.setName("aslfire-test-prefs");
        return true;
      });
      if (done) {
        return;
      }
      Thread.sleep(100);
    }
  }

  private static javax.swing.JTabbedPane findTabs(java.awt.Container c) {
    for (java.awt.Component k : c.getComponents()) {
      if (k instanceof javax.swing.JTabbedPane) {
        return (javax.swing.JTabbedPane) k;
      }
      if (k instanceof java.awt.Container) {
        javax.swing.JTabbedPane t = findTabs((java.awt.Container) k);
        if (t != null) {
          return t;
        }
      }
    }
    return null;
  }

  /** The whole (virtual) screen as a PNG at {@code path}: what the player sees. */
  public static void screenshot(String path) throws Exception {
    Thread.sleep(300);  // let Swing paint what was just opened
    java.awt.Rectangle all = new java.awt.Rectangle(java.awt.Toolkit.getDefaultToolkit().getScreenSize());
    java.awt.image.BufferedImage img = new java.awt.Robot().createScreenCapture(all);
    javax.imageio.ImageIO.write(img, "png", new java.io.File(path));
  }

  /** A player's File > Quit (the game saved just before, so VASSAL asks nothing): VASSAL closes the module and exits. */
  public static void quit() {
    SwingUtilities.invokeLater(() -> {
      GameModule.getGameModule().getGameState().setModified(false);
      GameModule.getGameModule().quit();
    });
  }
  // --- the map as a player sees and touches it: a move, the mouse over a point, a pixel ---------------------------

  /** A player's drag of piece {@code id} to the map point (x, y) of its map: VASSAL's own move command, logged. */
  public static void movePiece(String id, int x, int y) throws Exception {
    onEdt(() -> {
      VASSAL.counters.GamePiece p = GameModule.getGameModule().getGameState().getPieceForId(id);
      VASSAL.build.module.Map m = p.getMap();
      VASSAL.command.Command c = m.placeOrMerge(p, new java.awt.Point(x, y));
      GameModule.getGameModule().sendAndLog(c);
      m.repaint();
      return null;
    });
  }

  /** A player's hot key ({@code "ctrl alt R"}, Swing's KeyStroke words), as VASSAL hands it to its listeners. */
  public static void pressHotKey(String keyStroke) throws Exception {
    onEdt(() -> {
      GameModule.getGameModule().fireKeyStroke(
          new VASSAL.tools.NamedKeyStroke(javax.swing.KeyStroke.getKeyStroke(keyStroke)));
      return null;
    });
  }

  /** The mouse moved over the map point (x, y) of the first map: the tooltip the map's view then shows, or "". */
  public static String hoverMap(int x, int y) throws Exception {
    return onEdt(() -> {
      VASSAL.build.module.Map m = VASSAL.build.module.Map.getMapList().get(0);
      javax.swing.JComponent view = m.getView();
      java.awt.Point at = m.mapToComponent(new java.awt.Point(x, y));
      view.dispatchEvent(new java.awt.event.MouseEvent(view, java.awt.event.MouseEvent.MOUSE_MOVED,
          System.currentTimeMillis(), 0, at.x, at.y, 0, false));
      String tip = view.getToolTipText();
      return tip == null ? "" : tip;
    });
  }

  /** The colour (0xRRGGBB) the first map's view paints at the map point (x, y). */
  public static int mapPixel(int x, int y) throws Exception {
    return onEdt(() -> {
      VASSAL.build.module.Map m = VASSAL.build.module.Map.getMapList().get(0);
      return viewPixel(m, m.mapToComponent(new java.awt.Point(x, y)));
    });
  }

  /** The colour (0xRRGGBB) the first map's view paints (dx, dy) pixels from the top left corner of its window. */
  public static int windowPixel(int dx, int dy) throws Exception {
    return onEdt(() -> {
      VASSAL.build.module.Map m = VASSAL.build.module.Map.getMapList().get(0);
      java.awt.Rectangle vis = m.getView().getVisibleRect();
      return viewPixel(m, new java.awt.Point(vis.x + dx, vis.y + dy));
    });
  }

  private static int viewPixel(VASSAL.build.module.Map m, java.awt.Point at) {
    javax.swing.JComponent view = m.getView();
    java.awt.Rectangle vis = view.getVisibleRect();
    java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(vis.width, vis.height,
        java.awt.image.BufferedImage.TYPE_INT_RGB);
    java.awt.Graphics2D g = img.createGraphics();
    g.translate(-vis.x, -vis.y);
    g.setClip(vis);
    view.paint(g);
    g.dispose();
    return img.getRGB(at.x - vis.x, at.y - vis.y) & 0xFFFFFF;
  }
}
