package aslfire;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.swing.SwingUtilities;

/** Runs work on the Swing event thread and waits for it, never longer than a timeout. */
final class Edt {
  private Edt() {
  }

  /** Why a call onto the Swing thread did not complete; the message is shown to Python as is. */
  static final class EdtFailure extends Exception {
    private static final long serialVersionUID = 1L;

    EdtFailure(String msg, Throwable cause) {
      super(msg, cause);
    }
  }

  static <T> T call(Callable<T> work, long timeoutMs, String what) throws EdtFailure {
    if (SwingUtilities.isEventDispatchThread()) {
      try {
        return work.call();
      }
      catch (Exception e) {
        throw new EdtFailure(what + " failed: " + e, e);
      }
    }
    FutureTask<T> task = new FutureTask<>(work);
    SwingUtilities.invokeLater(task);
    try {
      return task.get(timeoutMs, TimeUnit.MILLISECONDS);
    }
    catch (TimeoutException e) {
      boolean never = task.cancel(false);
      throw new EdtFailure(what + ": VASSAL's Swing thread did not answer within " + timeoutMs + " ms"
          + (never ? " (nothing was changed; is a dialog open in VASSAL?)" : " (it may still complete)"), e);
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      task.cancel(false);
      throw new EdtFailure(what + ": interrupted", e);
    }
    catch (ExecutionException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new EdtFailure(what + " failed: " + c, c);
    }
  }
}
