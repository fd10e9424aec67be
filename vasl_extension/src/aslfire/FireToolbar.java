package aslfire;

import javax.swing.JButton;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.JToolBar;
import javax.swing.SwingUtilities;

import VASSAL.build.module.ToolbarMenu;
import VASSAL.tools.LaunchButton;

/**
 * The bridge's one toolbar slot: a button showing whether Python is connected (its icon, text and tooltip) that
 * opens a menu of the fire actions, each with its icon and tooltip. The menu items are named "aslfire-ACTION"; the
 * first, disabled item says the connection state. A VASSAL ToolbarMenu listing the button's text takes the menu in as a
 * submenu (ToolbarMenu.MENU_PROPERTY, found by LaunchButton.UNTRANSLATED_TEXT "ASL fire").
 */
final class FireToolbar {
  static final String BUTTON_NAME = "aslfire-menu";
  static final String STATE_NAME = "aslfire-state";
  /** The button's name for a ToolbarMenu (its menu entry), in both states. */
  static final String TEXT = "ASL fire";
  static final String TEXT_OFF = "ASL fire: no Python";

  private final JButton button = new JButton(TEXT);
  private final JPopupMenu menu = new JPopupMenu();
  private final JMenuItem state = new JMenuItem();
  private volatile boolean connected;
  /** The Fire risk layer's toggle: ticked while it is on. */
  private final javax.swing.JCheckBoxMenuItem riskItem = new javax.swing.JCheckBoxMenuItem();

  FireToolbar(FireBridge bridge) {
    button.setName(BUTTON_NAME);
    button.putClientProperty(LaunchButton.UNTRANSLATED_TEXT, TEXT);  // what a ToolbarMenu matches, not the text
    button.setFocusable(false);
    button.setAlignmentY(0.0F);  // as VASSAL's LaunchButton, so it lines up with the module's buttons
    button.putClientProperty(ToolbarMenu.MENU_PROPERTY, menu);
    button.addActionListener(e -> {
      if (button.isShowing()) {
        menu.show(button, 0, button.getHeight());
      }
    });
    state.setName(STATE_NAME);
    state.setEnabled(false);
    menu.add(state);
    for (String[] a : FireBridge.ACTIONS) {
      final String action = a[0];
      JMenuItem item = RiskLayer.EVENT.equals(action) ? riskItem : new JMenuItem(a[1], FireIcons.forAction(action));
      item.setText(a[1]);
      item.setIcon(FireIcons.forAction(action));
      if (item == riskItem) {
        item.setAccelerator(FireBridge.RISK_KEY);  // shown beside it; the module's hot key works without the menu
      }
      item.setName("aslfire-" + action);
      item.setToolTipText(a[2]);
      item.addActionListener(e -> bridge.pressed(action));
      menu.add(item);
    }
    paint(false);
  }

  void addTo(JToolBar bar) {
    bar.add(button);
    bar.revalidate();
  }

  void removeFrom(JToolBar bar) {
    menu.setVisible(false);
    bar.remove(button);
    bar.revalidate();
  }

  /** Ticks the Fire risk toggle (on the Swing thread). */
  void showRisk(boolean on) {
    riskItem.setSelected(on);
  }

  boolean isConnectedShown() {
    return connected;
  }

  /** Shows the connection state (from any thread: drawn on the Swing thread). */
  void showConnected(boolean now) {
    connected = now;
    if (SwingUtilities.isEventDispatchThread()) {
      paint(now);
    }
    else {
      SwingUtilities.invokeLater(() -> paint(connected));
    }
  }

  private void paint(boolean on) {
    button.setText(on ? TEXT : TEXT_OFF);
    button.setIcon(FireIcons.state(on));
    button.setToolTipText(on
        ? "ASL fire bridge: Python connected. Click for the fire actions."
        : "ASL fire bridge: Python not connected (" + FireBridge.startHint() + "). Click for the fire actions.");
    state.setText(on ? "Python connected" : "Python not connected");
    state.setToolTipText(on ? null : FireBridge.startHint());
    state.setIcon(FireIcons.state(on));
    state.setDisabledIcon(FireIcons.state(on));  // Swing cannot grey a painted icon: shown as it is
    button.revalidate();
    button.repaint();
  }
}
