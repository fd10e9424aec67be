package VASL.build.module.map.boardPicker;

/**
 * Test stand-in with VASL's class name: an overlay an SSR puts on the board. As VASL's, it is not written in the
 * board's saved state ({@code toString()} is empty). See tests/support/java/README.md.
 */
public class SSROverlay extends Overlay {
  public SSROverlay(String imageName) {
    name = imageName;
  }

  @Override
  public String toString() {
    return "";
  }
}
