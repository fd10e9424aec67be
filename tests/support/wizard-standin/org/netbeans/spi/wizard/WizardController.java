package org.netbeans.spi.wizard;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public interface WizardController {
  int MODE_CAN_CONTINUE = 1;
  int MODE_CAN_FINISH = 2;
  int MODE_CAN_CONTINUE_OR_FINISH = 3;

  void setProblem(String problem);

  void setForwardNavigationMode(int mode);

  void setBusy(boolean busy);
}
