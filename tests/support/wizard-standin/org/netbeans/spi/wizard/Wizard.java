package org.netbeans.spi.wizard;

/** Test stand-in (see tests/support/wizard-standin/README.md). */
public final class Wizard {
  final Object source;

  Wizard(Object source) {
    this.source = source;
  }
}
