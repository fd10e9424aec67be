package VASL.build.module.map.boardPicker;

import java.awt.Point;
import java.awt.Rectangle;
import java.util.StringTokenizer;

/**
 * Test stand-in with VASL's class name, fields and methods ({@code getName()}, {@code hex1}, {@code hex2},
 * {@code getPreserveElevation()}, {@code bounds()}, {@code toString()}); see tests/support/java/README.md.
 * No overlay archive is read: the bounds are a one-hex box at hex1 of the board's grid.
 */
public class Overlay {
  protected String name = "";
  public String hex1 = "";
  public String hex2 = "";
  private boolean preserveelevation = false;
  protected Rectangle boundaries = new Rectangle();
  protected ASLBoard board;

  public Overlay() {
  }

  /** As VASL's: {@code name\thex1\thex2[\tpreserveElevation]}. */
  public Overlay(String ovr, ASLBoard board) {
    StringTokenizer st = new StringTokenizer(ovr, "\t");
    if (st.countTokens() >= 3) {
      name = st.nextToken();
      hex1 = st.nextToken();
      hex2 = st.nextToken();
      if (st.hasMoreTokens()) {
        preserveelevation = Boolean.parseBoolean(st.nextToken());
      }
    }
    this.board = board;
    try {
      Point p = board.getGrid().getLocation(hex1);
      boundaries = new Rectangle(p.x - 28, p.y - 32, 56, 64);
    }
    catch (Exception e) {
      boundaries = new Rectangle();
    }
  }

  public String getName() {
    return name;
  }

  public boolean getPreserveElevation() {
    return preserveelevation;
  }

  public Rectangle bounds() {
    return boundaries;
  }

  public ASLBoard getBoard() {
    return board;
  }

  @Override
  public String toString() {
    return "OVR\t" + name + "\t" + hex1 + "\t" + hex2;
  }
}
