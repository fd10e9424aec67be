"""Readers of VASL's own files: the module (buildFile), board archives, saved games.

:mod:`.traits` and :mod:`.counters` are pure (no lxml) so the live bridge can
use them; the file readers (:mod:`.module`, :mod:`.terrain`, :mod:`.board`,
:mod:`.vsav`, :mod:`.position`) parse XML with lxml and never let a bad file
through without a :class:`~asl_vassal_bridge.core.errors.BadInput` naming it.
"""
