package VASL.build.module;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

import VASSAL.build.GameModule;
import VASSAL.build.module.map.boardPicker.Board;

/**
 * Test stand-in with VASL's class name and its {@code getVASLMap()} (see tests/support/java/README.md). As VASL's
 * {@code ASLMap.setBoards}, it builds one {@code VASL.LOS.Map.Map} for the boards: a map of the boards' size in
 * hexes, each board's own map (flipped when reversed) inserted at the grid position of its top left corner; null
 * (VASL's legacy mode, LOS off) when a board has no LOS data. A board's terrain is the module file
 * {@code standin-terrain/<board name>.txt} (see {@code Map.board}), the default test board without one, and a file
 * starting with {@code no LOS data} stands for a board VASL could not load.
 */
public class ASLMap extends VASSAL.build.module.Map {
  private VASL.LOS.Map.Map vaslMap;

  public VASL.LOS.Map.Map getVASLMap() {
    return vaslMap;
  }

  @Override
  public synchronized void setBoards(Collection<Board> c) {
    super.setBoards(c);
    vaslMap = build(getBoards());
  }

  public static String spec(String board) {
    try (InputStream in = GameModule.getGameModule().getDataArchive().getInputStream("standin-terrain/" + board + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    catch (IOException | RuntimeException e) {
      return null;
    }
  }

  static VASL.LOS.Map.Map build(Collection<Board> boards) {
    if (boards.isEmpty()) {
      return null;
    }
    Rectangle all = null;
    for (Board b : boards) {
      all = all == null ? new Rectangle(b.bounds()) : all.union(b.bounds());
    }
    double w = VASL.LOS.Map.Map.HEX_WIDTH;
    double h = VASL.LOS.Map.Map.HEX_HEIGHT;
    VASL.LOS.Map.Map map = new VASL.LOS.Map.Map((int) Math.round(all.width / w) + 1, (int) Math.round(all.height / h));
    for (Board b : boards) {
      String spec = spec(b.getName());
      if (spec != null && spec.startsWith("no LOS data")) {
        return null;  // VASL: "LOS disabled - Board … does not support LOS checking" (legacy mode)
      }
      VASL.LOS.Map.Map one = VASL.LOS.Map.Map.board(spec);
      if (b.isReversed()) {
        one.flip();
      }
      int col = (int) Math.round((b.bounds().x - all.x) / w);
      int row = (int) Math.round((b.bounds().y - all.y) / h);
      map.insertMap(one, map.getHex(col, row));
    }
    return map;
  }
}
