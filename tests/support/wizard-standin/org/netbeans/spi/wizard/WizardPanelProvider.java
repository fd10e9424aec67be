package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JComponent;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public abstract class WizardPanelProvider {
  protected final String title;
  protected final String[] steps;
  protected final String[] descriptions;

  protected WizardPanelProvider(String title, String[] steps, String[] descriptions) {
    this.title = title;
    this.steps = steps;
    this.descriptions = descriptions;
  }

  protected WizardPanelProvider(String[] steps, String[] descriptions) {
    this(null, steps, descriptions);
  }

  protected WizardPanelProvider(String title, String step, String description) {
    this(title, new String[] {step}, new String[] {description});
  }

  protected abstract JComponent createPanel(WizardController controller, String id, Map settings);

  public final Wizard createWizard() {
    return new Wizard(this);
  }
}
