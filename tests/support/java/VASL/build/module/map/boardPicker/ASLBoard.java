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
  private Rectangle cropBounds = new Rectangle(0, 0, -1, -1);
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

  public Rectangle getCropBounds() {
    return cropBounds;
  }

  public void setCropBounds(Rectangle r) {
    cropBounds = new Rectangle(r);
  }

  public Enumeration<Object> getOverlays() {
    return Collections.enumeration(overlays);
  }

  public void addOverlay(Object o) {
    overlays.add(o);
  }

  public SSRFilter getTerrain() {
    return terrain;
  }

  /** As VASL: the SSR's overlays replace the previous SSR's, first in the list. */
  public void setTerrain(String changes) {
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
    String val = relativePosition().x + "\t" + relativePosition().y + "\t" + (reversed ? "r" : "") + getName() + "\t";
    if (cropBounds.width > 0 || cropBounds.height > 0) {
      val += cropBounds.x + "\t" + cropBounds.y + "\t" + cropBounds.width + "\t" + cropBounds.height + "\t";
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
