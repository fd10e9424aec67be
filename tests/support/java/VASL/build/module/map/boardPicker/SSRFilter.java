package VASL.build.module.map.boardPicker;

import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;

/**
 * Test stand-in with VASL's class name: the board's SSR terrain changes; {@code toString()} gives the change string
 * as VASL's does. VASL reads colour rules and SSR overlays from the board archive (only some rules have
 * overlays); this stand-in reads nothing and gives one {@link SSROverlay} per rule. See
 * tests/support/java/README.md.
 */
public class SSRFilter {
  private final String saveRules;
  private final List<SSROverlay> overlays = new ArrayList<>();

  public SSRFilter(String listOfRules, ASLBoard board) {
    saveRules = listOfRules;
    StringTokenizer st = new StringTokenizer(listOfRules);
    while (st.hasMoreTokens()) {
      overlays.add(new SSROverlay(st.nextToken() + ".gif"));
    }
  }

  public Iterable<SSROverlay> getOverlays() {
    return overlays;
  }

  @Override
  public String toString() {
    return saveRules;
  }
}
