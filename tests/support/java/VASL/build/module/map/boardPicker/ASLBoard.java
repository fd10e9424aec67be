package VASL.build.module.map.boardPicker;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import VASSAL.build.Builder;
import VASSAL.build.module.map.boardPicker.Board;

/**
 * Test stand-in with VASL's class name and the methods the bridge reads by reflection
 * ({@code getOverlays()}, {@code getTerrain()}, {@code getCropBounds()}, {@code getVersion()},
 * {@code getState()}); see tests/support/java/README.md. Not VASL's code: no board archive, no
 * images, no overlay files. {@code getState()} writes VASL's saved-game board entry format.
 */
public class ASLBoard extends Board {
  public String version = "0.0";
  /** As VASL's: the picker's "FullHex" crop (never set here). */
  public boolean nearestFullRow;
  private Rectangle cropBounds;
  private final List<Object> overlays = new ArrayList<>();
  private String terrainChanges = "";
  private SSRFilter terrain;

  public ASLBoard() {
  }

  /** VASSAL's {@code Board.copy()} makes a plain Board; a saved game's boards are copies, so keep the class. */
  @Override
  public Board copy() {
    ASLBoard b = new ASLBoard();
    b.build(getBuildElement(Builder.createNewDocument()));
    return b;
  }

  /**
   * As VASL's: the crop in board pixels ((0, 0, -1, -1): none). Unless a test gave one ({@link #setCropBounds}), the
   * crop the board was built with: a line {@code #crop<TAB>x<TAB>y<TAB>width<TAB>height} in the board's stand-in
   * terrain (as VASL's picker crops a board before the map is built).
   */
  public Rectangle getCropBounds() {
    return new Rectangle(cropBounds != null ? cropBounds : builtCrop());
  }

  private Rectangle built;

  private Rectangle builtCrop() {
    if (built == null) {
      built = new Rectangle(0, 0, -1, -1);
      String spec = VASL.build.module.ASLMap.spec(getName());
      for (String line : spec == null ? new String[0] : spec.split("\n")) {
        String[] f = line.trim().split("\t");
        if (f[0].equals("#crop") && f.length == 5) {
          built = new Rectangle(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
              Integer.parseInt(f[4]));
        }
      }
    }
    return built;
  }

  /** As VASL's: a cropped board is the crop's size on the map. */
  @Override
  public Rectangle bounds() {
    Rectangle r = super.bounds();
    Rectangle c = builtCrop();
    if (c.width > 0) {
      r.width = c.width;
    }
    if (c.height > 0) {
      r.height = c.height;
    }
    return r;
  }

  /** As VASL's: the board's own (uncropped, unturned) coordinates of a point of the board as shown. */
  @Override
  public java.awt.Point localCoordinates(java.awt.Point p) {
    java.awt.Point q = super.localCoordinates(p);
    Rectangle c = builtCrop();
    q.translate(Math.max(0, c.x), Math.max(0, c.y));
    return q;
  }

  @Override
  public java.awt.Point globalCoordinates(java.awt.Point p) {
    Rectangle c = builtCrop();
    p.translate(-Math.max(0, c.x), -Math.max(0, c.y));
    return super.globalCoordinates(p);
  }

  /** As VASL's VASLBoard for a geomorphic board: the whole board's size and A1's centre dot. */
  public java.awt.Dimension getUncroppedSize() {
    return new java.awt.Dimension(1800, 645);
  }

  public double getA1CenterX() {
    return 0.0;
  }

  public double getA1CenterY() {
    return 32.25;
  }

  public void setCropBounds(Rectangle r) {
    cropBounds = new Rectangle(r);
  }

  public Enumeration<Object> getOverlays() {
    getTerrain();
    return Collections.enumeration(overlays);
  }

  public void addOverlay(Object o) {
    overlays.add(o);
  }

  /**
   * As VASL's: the board's SSR terrain changes. Unless a test gave them ({@link #setTerrain}), those the board was
   * built with: a line {@code #ssr<TAB>TOKENS} in the board's stand-in terrain (as VASL's picker reads a saved
   * game's board entry before the map is built); lines {@code #overlay<TAB>NAME<TAB>HEX1<TAB>HEX2} give it its
   * overlays the same way.
   */
  public SSRFilter getTerrain() {
    if (!ssrRead) {
      ssrRead = true;
      String spec = VASL.build.module.ASLMap.spec(getName());
      for (String line : spec == null ? new String[0] : spec.split("\n")) {
        String[] f = line.trim().split("\t");
        if (f[0].equals("#ssr") && f.length == 2 && terrain == null) {
          setTerrain(f[1].trim());
        }
        if (f[0].equals("#overlay") && f.length == 4) {
          overlays.add(new Overlay(f[1] + "\t" + f[2] + "\t" + f[3], this));
        }
      }
    }
    return terrain;
  }

  private boolean ssrRead;

  /** As VASL: the SSR's overlays replace the previous SSR's, first in the list. */
  public void setTerrain(String changes) {
    ssrRead = true;
    terrainChanges = changes;
    terrain = null;
    if (changes == null) {
      return;
    }
    overlays.removeIf(o -> o instanceof SSROverlay);
    if (changes.length() > 0) {
      terrain = new SSRFilter(changes, this);
      for (SSROverlay o : terrain.getOverlays()) {
        overlays.add(0, o);
      }
    }
  }

  /** As VASL's VASLBoard: true for a board without LOS data (here: its stand-in terrain file says "no LOS data"). */
  public boolean isLegacyBoard() {
    try (java.io.InputStream in = VASSAL.build.GameModule.getGameModule().getDataArchive()
        .getInputStream("standin-terrain/" + getName() + ".txt")) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).startsWith("no LOS data");
    }
    catch (java.io.IOException | RuntimeException e) {
      return false;
    }
  }

  public String getVersion() {
    return version;
  }

  /** VASL's saved-game board entry: x, y, [r]name, [crop x, y, w, h,] VER, version, overlays, [SSR, changes]. */
  public String getState() {
    getTerrain();
    String val = relativePosition().x + "\t" + relativePosition().y + "\t" + (reversed ? "r" : "") + getName() + "\t";
    Rectangle crop = getCropBounds();
    if (crop.width > 0 || crop.height > 0) {
      val += crop.x + "\t" + crop.y + "\t" + crop.width + "\t" + crop.height + "\t";
    }
    val += "VER\t" + getVersion() + '\t';
    for (Object o : overlays) {
      val += o + "\t";
    }
    if (terrainChanges.length() > 0) {
      val += "SSR\t" + terrainChanges;
    }
    if (magnification != 1.0) {
      val += "\tZOOM\t" + magnification;
    }
    return val;
  }
}
