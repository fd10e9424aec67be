package org.netbeans.api.wizard;

import java.awt.Rectangle;
import java.util.Map;
import javax.swing.Action;
import org.netbeans.spi.wizard.Wizard;

/** Test stand-in (see tests/support/wizard-standin/README.md): shows nothing. */
public final class WizardDisplayer {
  private WizardDisplayer() {
  }

  public static Object showWizard(Wizard wizard, Rectangle bounds) {
    return null;
  }

  public static Object showWizard(Wizard wizard, Rectangle bounds, Action help, Map initialProperties) {
    return null;
  }
}
