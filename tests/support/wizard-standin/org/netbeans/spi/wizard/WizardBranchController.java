package org.netbeans.spi.wizard;

import java.util.Map;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public abstract class WizardBranchController {
  private final WizardPanelProvider base;

  protected WizardBranchController(WizardPanelProvider base) {
    this.base = base;
  }

  protected WizardPanelProvider getPanelProviderForStep(String step, Map settings) {
    return null;
  }

  protected Wizard getWizardForStep(String step, Map settings) {
    WizardPanelProvider p = getPanelProviderForStep(step, settings);
    return p == null ? null : p.createWizard();
  }

  public final Wizard createWizard() {
    return new Wizard(this);
  }
}
