package aslbridgetest;

/**
 * Test support for the VASL stand-ins only (compiled with them, never against VASL's real classes): gives a board
 * VASL's overlays, SSR, crop and version as VASL's board picker would. Never shipped.
 */
public final class StandinBoards {
  private StandinBoards() {
  }

  private static <T> T onEdt(java.util.concurrent.Callable<T> c) throws Exception {
    java.util.concurrent.FutureTask<T> t = new java.util.concurrent.FutureTask<>(c);
    javax.swing.SwingUtilities.invokeLater(t);
    return t.get(20, java.util.concurrent.TimeUnit.SECONDS);
  }

  /**
   * Gives the map's board {@code boardName} (a VASL {@code ASLBoard} stand-in) VASL's crop, version, overlays and
   * SSR from the part of a saved-game board entry after the name ({@code [x\ty\tw\th\t]VER\tv\tOVR\tname\thex1
   * \thex2[\ttrue]\t…SSR\tchanges}; {@code OVR2} for an overlay of a newer VASL), the way VASL's ASLBoardPicker.buildBoard reads it. Returns the board's
   * {@code getState()}, or null if there is no such ASLBoard.
   */
  public static String vaslBoard(String boardName, String entry) throws Exception {
    return onEdt(() -> {
      for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        for (VASSAL.build.module.map.boardPicker.Board b : m.getBoards()) {
          if (b.getName().equals(boardName) && b instanceof VASL.build.module.map.boardPicker.ASLBoard) {
            VASL.build.module.map.boardPicker.ASLBoard ab = (VASL.build.module.map.boardPicker.ASLBoard) b;
            buildVaslBoard(ab, entry);
            return ab.getState();
          }
        }
      }
      return null;
    });
  }

  private static void buildVaslBoard(VASL.build.module.map.boardPicker.ASLBoard b, String bd) {
    java.util.StringTokenizer st = new java.util.StringTokenizer(bd, "\t\n");
    try {
      int x = Integer.parseInt(st.nextToken());
      int y = Integer.parseInt(st.nextToken());
      int w = Integer.parseInt(st.nextToken());
      int h = Integer.parseInt(st.nextToken());
      b.setCropBounds(new java.awt.Rectangle(x, y, w, h));
    }
    catch (RuntimeException e) {
      b.setCropBounds(new java.awt.Rectangle(0, 0, -1, -1));
    }
    if (bd.contains("VER")) {
      java.util.StringTokenizer v = new java.util.StringTokenizer(bd.substring(bd.indexOf("VER") + 4), "\t");
      if (v.hasMoreTokens()) {
        b.version = v.nextToken();
      }
    }
    while (bd.contains("OVR")) {
      int at = bd.indexOf("OVR");
      boolean newer = bd.startsWith("OVR2\t", at);
      bd = bd.substring(at + (newer ? 5 : 4));
      // "OVR2": an overlay of a newer VASL, whose elevation flag is getPersistElevation()
      if (newer) {
        b.addOverlay(new VASL.build.module.map.boardPicker.newer.Overlay(bd, b));
      }
      else {
        b.addOverlay(new VASL.build.module.map.boardPicker.Overlay(bd, b));
      }
    }
    if (bd.contains("SSR")) {
      b.setTerrain(bd.substring(bd.indexOf("SSR") + 4));
    }
  }

}
