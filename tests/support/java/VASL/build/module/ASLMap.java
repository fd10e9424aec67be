package VASL.build.module;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

import VASSAL.build.GameModule;
import VASSAL.build.module.map.boardPicker.Board;

/**
 * Test stand-in with VASL's class name and its {@code getVASLMap()} (see tests/support/java/README.md). As VASL
 * 6.7.x's {@code ASLMap.buildVASLMap}, it builds one map-wide {@code VASL.LOS.Map.Map} for the boards first (the
 * boards' size in hexes and pixels), then adds each board in the order of the map's boards as {@code
 * addBoardsToMap} → {@code BoardArchive.addLOSDatatoVASLMap} does (crop, place, flip: {@code Map.addBoard}); null
 * (VASL's legacy mode, LOS off) when a board has no LOS data (the VASL of 2020's way, the variant "2020" of
 * tests/support/standin_variants.py, replaces {@link #mapWide} and {@link #addBoardToMap}). A board's terrain is the
 * module file {@code standin-terrain/<board name>.txt} (see {@code Map.board}), the default test board without one,
 * and a file starting with {@code no LOS data} stands for a board VASL could not load.
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

  /** The stand-in terrain of a board (null: the default test board). */
  public static String spec(String board) {
    try (InputStream in = GameModule.getGameModule().getDataArchive().getInputStream("standin-terrain/" + board + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The {@code terrainMap} rules of the module's {@code boardData/SharedBoardMetadata.xml} (VASL's {@code LOSSSRule}
   * elements: name → {fromValue, toValue}; a repeated name keeps the last, as VASL's metadata map does); none
   * without the file.
   */
  static java.util.Map<String, String[]> terrainMapRules() {
    java.util.Map<String, String[]> rules = new java.util.HashMap<>();
    for (org.w3c.dom.Element e : sharedElements("LOSSSRule")) {
      if ("terrainMap".equals(e.getAttribute("type"))) {
        rules.put(e.getAttribute("name"), new String[] {e.getAttribute("fromValue"), e.getAttribute("toValue")});
      }
    }
    return rules;
  }

  /** The module's SharedBoardMetadata colours that name a terrain (RGB → terrain name; the first of an RGB wins). */
  static java.util.Map<Integer, String> colourTerrain() {
    java.util.Map<Integer, String> out = new java.util.HashMap<>();
    for (org.w3c.dom.Element e : sharedElements("color")) {
      String t = e.getAttribute("terrain");
      try {
        int rgb = (Integer.parseInt(e.getAttribute("red")) << 16) | (Integer.parseInt(e.getAttribute("green")) << 8)
            | Integer.parseInt(e.getAttribute("blue"));
        if (!t.isEmpty() && !"UNKNOWN".equals(t)) {
          out.putIfAbsent(rgb, t);
        }
      }
      catch (NumberFormatException x) {
        // a colour without RGB values: none
      }
    }
    return out;
  }

  /**
   * An overlay as VASL 6.7.x puts it into the LOS map, in part ({@code Map.applyOverlay}): its archive (VASL's
   * {@code Overlay.archiveName}: "ovr" + the name's letters, upper-cased) is the module file {@code
   * standin-overlays/<archive>}; its {@code data} line gives the origin hex of orientation a, its picture is {@code
   * ovr<name>a.gif} (only single-orientation overlays here).
   */
  static void applyOverlay(VASL.LOS.Map.Map board, VASL.build.module.map.boardPicker.Overlay o) {
    String name = o.getName();
    String archive = "ovr" + name.replaceAll("[0-9]+$", "").toUpperCase(java.util.Locale.ROOT);
    try (InputStream in = GameModule.getGameModule().getDataArchive().getInputStream("standin-overlays/" + archive);
         java.util.zip.ZipInputStream z = new java.util.zip.ZipInputStream(in)) {
      String origin = null;
      java.awt.image.BufferedImage picture = null;
      for (java.util.zip.ZipEntry entry = z.getNextEntry(); entry != null; entry = z.getNextEntry()) {
        byte[] bytes = z.readAllBytes();
        if (entry.getName().equals("data")) {
          for (String line : new String(bytes, StandardCharsets.ISO_8859_1).split("\n")) {
            String[] f = line.trim().split("\\s+", 2);
            if (f.length == 2 && f[0].equalsIgnoreCase(name)) {
              origin = f[1].split(";")[0].trim().toUpperCase(java.util.Locale.ROOT);
            }
          }
        }
        else if (entry.getName().equalsIgnoreCase("ovr" + name + "a.gif")) {
          picture = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(bytes));
        }
      }
      if (origin != null && picture != null) {
        board.applyOverlay(picture, o.hex1, origin, colourTerrain());
      }
    }
    catch (IOException | RuntimeException e) {
      // no such overlay archive in the module: the overlay changes nothing (VASL: not in its LOS model)
    }
  }

  /** The elements of that tag in the module's {@code boardData/SharedBoardMetadata.xml} (none without it). */
  static java.util.List<org.w3c.dom.Element> sharedElements(String tag) {
    java.util.List<org.w3c.dom.Element> out = new java.util.ArrayList<>();
    try (InputStream in = GameModule.getGameModule().getDataArchive()
        .getInputStream("boardData/SharedBoardMetadata.xml")) {
      javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      org.w3c.dom.NodeList list = f.newDocumentBuilder().parse(in).getElementsByTagName(tag);
      for (int i = 0; i < list.getLength(); i++) {
        out.add((org.w3c.dom.Element) list.item(i));
      }
    }
    catch (IOException | RuntimeException | javax.xml.parsers.ParserConfigurationException
        | org.xml.sax.SAXException e) {
      // no SharedBoardMetadata in the module
    }
    return out;
  }

  static VASL.LOS.Map.Map build(Collection<Board> boards) {
    if (boards.isEmpty()) {
      return null;
    }
    Rectangle all = null;
    for (Board b : boards) {
      all = all == null ? new Rectangle(b.bounds()) : all.union(b.bounds());
    }
    VASL.LOS.Map.Map map = mapWide(all);
    for (Board b : boards) {
      String spec = spec(b.getName());
      if (spec != null && spec.startsWith("no LOS data")) {
        return null;  // VASL: "LOS disabled - Board … does not support LOS checking" (legacy mode)
      }
      addBoardToMap(map, b, all, VASL.LOS.Map.Map.board(spec));
    }
    return map;
  }

  /** As VASL 6.7.x's {@code buildVASLMap}: one map-wide Map, the boards' size in hexes and in pixels ({@code all}). */
  static VASL.LOS.Map.Map mapWide(Rectangle all) {
    return new VASL.LOS.Map.Map((int) Math.round(all.width / VASL.LOS.Map.Map.HEX_WIDTH) + 1,
        (int) Math.round(all.height / VASL.LOS.Map.Map.HEX_HEIGHT), all.width, all.height);
  }

  /**
   * As VASL 6.7.x's {@code addOneBoardToMap} → {@code BoardArchive.addLOSDatatoVASLMap}: the board's colour SSRs,
   * then its overlays, change its pixels (and so its hexes); then its crop is placed on the map, turned when
   * reversed ({@code Map.addBoard}).
   */
  static void addBoardToMap(VASL.LOS.Map.Map map, Board b, Rectangle all, VASL.LOS.Map.Map board) {
    Rectangle crop = b instanceof VASL.build.module.map.boardPicker.ASLBoard
        ? ((VASL.build.module.map.boardPicker.ASLBoard) b).getCropBounds() : new Rectangle(0, 0, -1, -1);
    Rectangle place = b.bounds();
    place.translate(-all.x, -all.y);
    if (b instanceof VASL.build.module.map.boardPicker.ASLBoard) {
      // VASL 6.7.x: the board's colour SSRs change its pixels (and so its hexes) before they are placed
      Object ssr = ((VASL.build.module.map.boardPicker.ASLBoard) b).getTerrain();
      if (ssr != null) {
        board.applyColorSSRules(ssr.toString(), terrainMapRules());
      }
      // then its overlays (ASLMap.adjustLOSForOverlays, called from addLOSDatatoVASLMap before the flip)
      java.util.Enumeration<Object> e = ((VASL.build.module.map.boardPicker.ASLBoard) b).getOverlays();
      while (e.hasMoreElements()) {
        Object o = e.nextElement();
        if (o instanceof VASL.build.module.map.boardPicker.Overlay) {
          applyOverlay(board, (VASL.build.module.map.boardPicker.Overlay) o);
        }
      }
    }
    map.addBoard(board, crop, place, b.isReversed());
  }
}
