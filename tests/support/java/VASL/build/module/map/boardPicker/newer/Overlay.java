package VASL.build.module.map.boardPicker.newer;

import VASL.build.module.map.boardPicker.ASLBoard;

/**
 * Test stand-in of a newer VASL's {@code Overlay}, whose elevation flag is {@code getPersistElevation()} (older ones:
 * {@code getPreserveElevation()}, the stand-in one package up). VASL has one {@code Overlay} class per version; this
 * package only lets one test game hold both kinds. See tests/support/java/README.md.
 */
public class Overlay {
  public String hex1 = "";
  public String hex2 = "";
  private final String name;
  private final boolean persist;

  /** As VASL's: {@code name\thex1\thex2[\tpersistElevation]}. */
  public Overlay(String ovr, ASLBoard board) {
    String[] f = ovr.split("\t");
    name = f.length > 0 ? f[0] : "";
    hex1 = f.length > 1 ? f[1] : "";
    hex2 = f.length > 2 ? f[2] : "";
    persist = f.length > 3 && Boolean.parseBoolean(f[3]);
  }

  public String getName() {
    return name;
  }

  public boolean getPersistElevation() {
    return persist;
  }

  @Override
  public String toString() {
    return "OVR\t" + name + "\t" + hex1 + "\t" + hex2;
  }
}
