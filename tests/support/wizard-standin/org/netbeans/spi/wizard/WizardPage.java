package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JPanel;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public class WizardPage extends JPanel {
  private static final long serialVersionUID = 1L;

  public WizardPage(String stepDescription) {
    super();
  }

  /** Finishes a wizard. */
  public interface WizardResultProducer {
    Object finish(Map wizardData) throws WizardException;

    boolean cancel(Map settings);
  }
}
