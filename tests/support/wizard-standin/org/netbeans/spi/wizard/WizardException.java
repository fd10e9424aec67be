package org.netbeans.spi.wizard;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public class WizardException extends Exception {
  private static final long serialVersionUID = 1L;

  public WizardException(String message) {
    super(message);
  }

  public WizardException(String message, String step) {
    super(message);
  }
}
