package org.netbeans.spi.wizard;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public interface WizardPanel {
}
