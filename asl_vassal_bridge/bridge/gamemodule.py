"""Which counter is which, from the module the game runs (its buildFile, read with lxml), else the bundled 6.5 data.

At connect the extension tells the module file VASSAL opened
(``GameModule.getDataArchive().getName()``; the client puts it in every
snapshot as ``module.path``).  :func:`counter_data` reads that ``VASL.vmod``'s
buildFile with :mod:`asl_vassal_bridge.vasl.module` once per file (cached by
path, modification time and size, not per button press) and derives from its
palette the unit catalogue, the unit counters' gpids and the fire counters'
gpids (:mod:`asl_vassal_bridge.vasl.catalogue`), so a 6.7 or newer module's
counters are known.  Without a readable VASL module the bundled catalogue
(``data/units/vasl-6.5.json``) is used; :attr:`CounterData.description` says
which, and why.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..core.errors import BadInput
from ..core.units import UnitCatalogue
from ..vasl.counters import (
    BUILDING_BLAZE_GPIDS,
    PLACE_GPIDS,
    BadCounterState,
    CounterLevel,
    FireCounter,
    building_blaze_levels,
    classify,
    level_from_piece,
)
from ..vasl.module import ModuleIndex
from ..vasl.units import CounterIndex

__all__ = ["LEVEL_GPIDS", "CounterData", "bundled", "counter_data", "module_path"]

log = logging.getLogger("asl_fire.bridge")

#: VASL's Level marker slot for each level ("Info / Locate / Building"): each shows its level as placed.
LEVEL_GPIDS: dict[CounterLevel, str] = {
    CounterLevel(-1): "171", CounterLevel(0): "173", CounterLevel(1): "167", CounterLevel(2): "169",
    CounterLevel(3): "163", CounterLevel(99, True): "165",
}


@dataclass(frozen=True)
class CounterData:
    """The unit catalogue and counter gpids the bridge uses, and where they come from."""

    catalogue: UnitCatalogue
    counters: CounterIndex
    #: ``"module"`` (the game's own module file) or ``"bundled"`` (the packaged catalogue, from VASL 6.5-beta3).
    source: str
    #: One line for the chat and the log: which module (or why the bundled data).
    description: str
    module: ModuleIndex | None = None
    #: gpid → fire counter, from the module's slots (empty for the bundled data: VASL's fixed gpids apply).
    fire_gpids: Mapping[str, FireCounter] = field(default_factory=dict)

    def classify(self, name: str | None, gpid: str | None) -> FireCounter | None:
        """The fire counter a piece is: by the module's own slots, then VASL's gpids and names."""
        hit = self.fire_gpids.get(str(gpid or ""))
        return hit if hit is not None else classify(name, gpid)

    def has_slot(self, gpid: str) -> bool:
        return self.module is None or gpid in self.module.by_gpid

    def place_gpid(self, kind: FireCounter) -> str:
        """The gpid to place a new counter of *kind*: VASL's, or the module's own slot of that kind."""
        want = PLACE_GPIDS[kind]
        if self.module is None or want in self.module.by_gpid:
            return want
        for k, slot in self.module.fire_slots():
            if k is kind and "Night" not in slot.path and slot.path[:1] != ("?",):
                return slot.gpid
        return want

    def building_blaze_gpid(self, levels: int) -> str:
        """The gpid of the *levels*-level Blaze counter (B25.2)."""
        want = BUILDING_BLAZE_GPIDS[levels]
        if self.module is None or want in self.module.by_gpid:
            return want
        for k, slot in self.module.fire_slots():
            if k is FireCounter.BUILDING_BLAZE and building_blaze_levels(slot.name, None) == levels:
                return slot.gpid
        return want

    def level_gpid(self, level: CounterLevel) -> str:
        """The gpid of VASL's Level marker that shows *level* when placed."""
        want = LEVEL_GPIDS[level]
        if self.module is None or want in self.module.by_gpid:
            return want
        for k, slot in self.module.fire_slots():
            if k is FireCounter.LEVEL:
                try:
                    if level_from_piece(list(slot.traits)) == level:
                        return slot.gpid
                except BadCounterState:
                    continue
        return want


def module_path(snapshot: Mapping[str, Any]) -> str | None:
    """The module file VASSAL opened, as the snapshot gives it (None if unknown)."""
    mod = snapshot.get("module")
    path = mod.get("path") if isinstance(mod, Mapping) else None
    return str(path) if path else None


@lru_cache(maxsize=1)
def bundled(why: str = "") -> CounterData:
    """The packaged catalogue, built from VASL 6.5-beta3's palette (with *why* the game's own module was not used)."""
    from ..data import DEFAULT_CATALOGUE, bundled_counters, unit_catalogue

    catalogue = unit_catalogue()
    text = f"{catalogue.source.removeprefix('the ')}, asl_vassal_bridge/data/units/{DEFAULT_CATALOGUE}"
    return CounterData(catalogue, CounterIndex.from_dict(bundled_counters()), "bundled",
                       f"{text}: {why}" if why else text)


@lru_cache(maxsize=4)
def _read(path: str, mtime_ns: int, size: int) -> CounterData:
    """The module file's counter data (cached per path, modification time and size)."""
    from ..vasl.catalogue import catalogue_from_module
    from ..vasl.module import module_index

    index = module_index(path)
    data = catalogue_from_module(index)
    label = " ".join(x for x in (index.name, index.version) if x) or "module"
    if not data["counters"] and not any(n["mmc"] for n in data["nationalities"].values()):
        return bundled(f"{path} ({label}) has no VASL unit counter palette")
    catalogue = UnitCatalogue.from_dict(data, path)
    fire = {s.gpid: k for k, s in index.fire_slots() if s.gpid}
    return CounterData(catalogue, CounterIndex.from_dict(data["counters"]), "module",
                       f"the game's module {label} ({path})", index, fire)


def counter_data(snapshot: Mapping[str, Any]) -> CounterData:
    """The counter data of the module the snapshot's game runs, read once per module file; else the bundled data.

    Never raises for a bad or missing module file: the bundled data is used and
    its description says why (also logged once).
    """
    path = module_path(snapshot)
    if path is None:
        return bundled("VASSAL did not say which module file it opened")
    try:
        st = os.stat(path)
    except OSError as e:
        return _fallback(f"the module file {path} cannot be read ({e.strerror or e})")
    try:
        return _read(path, st.st_mtime_ns, st.st_size)
    except BadInput as e:
        return _fallback(f"the module file could not be read: {e}")


_said: set[str] = set()


def _fallback(why: str) -> CounterData:
    if why not in _said:
        _said.add(why)
        log.warning("using the bundled unit catalogue: %s", why)
    return bundled(why)
