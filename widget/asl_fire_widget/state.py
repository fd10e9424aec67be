"""The widget's model, without any drawing: a Position, its history, the dice, the log, and what to show.

Every action returns nothing and changes the session; rules come from the core (``asl_vassal_bridge.core``), never
from here; the load error, the hover panel and a live game's snapshot are in :mod:`.session_support`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asl_vassal_bridge.core import (
    EC,
    BadInput,
    Direction,
    Fire,
    FireKind,
    Hex,
    Location,
    Phase,
    Position,
    Report,
    SeededDice,
    Terrain,
    Unit,
    UnitKind,
    Wind,
    WindForce,
    end_of_afph,
    kindling_attempt,
    rally_phase,
)
from asl_vassal_bridge.core.dice import Dice
from asl_vassal_bridge.core.fire import SpreadCheck, pending_spreads
from asl_vassal_bridge.core.firestarts import add_burning_wreck
from asl_vassal_bridge.core.forecast import Forecast, ForecastProgram, compile_position, forecast, play_player_turn
from asl_vassal_bridge.core.turn import pending_from_clock
from asl_vassal_bridge.core.values import replace

from .attacks import AttackForm, AttackPreview, HobForm, HobPreview, attack_preview, hob_preview
from .session_support import (
    KINDLERS,
    TOOLS,
    HoverInfo,
    LoadError,
    hover_info,
    live_setup,
    live_unit_pieces,
    notebook_words,
    status_line,
)

if TYPE_CHECKING:
    from asl_vassal_bridge.vasl.setup import VaslSetup

__all__ = ["KINDLERS", "TOOLS", "FireSession", "HoverInfo", "LoadError"]


class FireSession:
    """A Position being explored: actions, undo/redo, log, one-phase odds and forecasts."""

    def __init__(self, pos: Position, *, seed: int | None = None, dice: Dice | None = None,
                 source: str = "") -> None:
        self.position = pos
        self.dice: Dice = dice if dice is not None else SeededDice(seed)
        self.seed = seed
        self.source = source or pos.name
        self.undo_stack: list[Position] = []
        self.redo_stack: list[Position] = []
        self.undo_labels: list[str] = []  # what each entry of undo_stack was undone by: the action's name
        self.redo_labels: list[str] = []
        self.log: list[str] = []  # the whole history, never trimmed
        self._mark = 0  # the log's length when the last action ended: the next action's lines start here
        self.undo_spans: list[tuple[int, int]] = []  # the log lines of each undoable action, as undo_stack
        self.redo_spans: list[tuple[int, int]] = []
        self.undone_spans: set[tuple[int, int]] = set()
        self._last_title = ""
        self.tool = "inspect"
        #: The unit chosen on the map (a click with the inspect tool), for the FT/MOL and Heat of Battle forms.
        self.selected_unit: str | None = None
        #: The hut Locations one attack affected (the huts tool's clicks), for :meth:`roll_huts`.
        self.hut_picks: list[Location] = []
        self.level = 0
        self.kindler = next(iter(KINDLERS))
        self.forecast_result: Forecast | None = None
        #: Why the last forecast no longer shows the current Position (None while it does).
        self.forecast_stale: str | None = None
        self._odds: dict[Location, SpreadCheck] | None = None
        self._program: ForecastProgram | None = None
        self.listeners: list[Callable[[str], None]] = []
        self.read_only_source: str | None = None
        self.attack_form = AttackForm()
        self.hob_form = HobForm()
        self._attack_pick = "firer"  # which end of the attack the next "attack" click sets
        #: Where the map's board archives are (for VASL's board art), and each board's crop rectangle.
        self.boards_dir: Path | None = None
        self.crops: tuple[tuple[int, int, int, int] | None, ...] = ()
        #: Each board's overlays (as the saved game or snapshot lists them), drawn on the board art.
        self.overlays: tuple[tuple[Any, ...], ...] = ()
        #: The boards folder and VASL module the position was read with (a .vsav or a live game).
        self.vasl: VaslSetup | None = None
        #: Each unit's VASL piece (the saved game's or the snapshot's, by unit id): what VASL's picture of it is.
        self.unit_pieces: dict[str, Mapping[str, Any]] = {}

    # -- loading -------------------------------------------------------------
    @classmethod
    def demo(cls, seed: int | None = None) -> FireSession:
        """The embedded demo scenario."""
        from asl_vassal_bridge.scenarios import demo_position

        return cls(demo_position(), seed=seed, source="demo")

    @classmethod
    def from_file(cls, path: str | Path, boards: str | Path | None = None, seed: int | None = None,
                  vasl: str | Path | None = None) -> FireSession:
        """A position file (.toml), or a VASL saved game (.vsav) with VASL's boards folder and module.

        For a ``.vsav``, *boards* and *vasl* (``VASL.vmod``, for its terrain types) default to what
        VASSAL's preferences record, as the ``asl-fire`` commands do; the log says which were used, and
        the boards folder gives the map VASL's board art.

        :raises LoadError: naming the file and what is wrong, in one line.
        """
        try:
            s = cls._from_file(path, boards, seed, vasl)
        except LoadError:
            raise
        except (BadInput, OSError) as e:
            raise LoadError(str(e)) from None
        s._mark = len(s.log)
        return s

    @classmethod
    def _from_file(cls, path: str | Path, boards: str | Path | None, seed: int | None,
                   vasl: str | Path | None) -> FireSession:
        from asl_vassal_bridge.loading import is_saved_game_name, load_position

        if not is_saved_game_name(path):
            s = cls(load_position(path), seed=seed, source=str(path))
            s.boards_dir = Path(boards) if boards is not None else None
            return s
        from asl_vassal_bridge.vasl.setup import resolve_vasl
        from asl_vassal_bridge.vasl.vsav import read_vsav

        setup = resolve_vasl(vasl, boards)
        s = cls(load_position(path, setup.boards, setup.module), seed=seed, source=str(path))
        for line in setup.notes:
            s.say(f"· {notebook_words(line)}")
        s.say_terrain_notes(s.position.notes)
        s.vasl, s.boards_dir = setup, setup.boards
        game = read_vsav(path)
        entries = game.boards
        from asl_vassal_bridge.vasl.units import piece_dict

        units = {u.id for u in s.position.units}
        s.unit_pieces = {p.id: piece_dict(p) for p in game.pieces if p.id in units}
        s.crops = tuple(b.crop for b in entries)
        s.overlays = tuple(b.overlays for b in entries)
        return s

    @classmethod
    def from_snapshot(cls, snapshot: dict[str, Any], boards: str | Path | None = None,
                      seed: int | None = None, vasl: str | Path | None = None) -> FireSession:
        """A live VASSAL snapshot (read-only: nothing is sent back to the game).

        Terrain comes from VASL's own model in the snapshot; the boards folder (*boards*, else VASSAL's
        preferences) gives the board art, and the terrain where the snapshot has no VASL model.
        """
        from asl_vassal_bridge.bridge.convert import board_entries, position_from_snapshot

        try:
            setup = live_setup(boards, vasl)
            game = position_from_snapshot(snapshot, vasl=setup)
        except (BadInput, OSError) as err:
            raise LoadError(str(err)) from None
        s = cls(game.position, seed=seed, source="live VASSAL game")
        s.read_only_source = "live VASSAL game"
        s.unit_pieces = live_unit_pieces(snapshot, game.position)
        s.vasl = setup
        for line in setup.notes:
            s.say(f"· {notebook_words(line)}")
        s.say_terrain_notes(game.notes)
        if setup.boards is not None:
            s.boards_dir = setup.boards
            entries = {(b.x, b.y): b for b in board_entries(snapshot)}  # in the map layout's board order
            layout = game.position.map.layout.boards
            s.crops = tuple(e.crop if (e := entries.get((b.x, b.y))) else None for b in layout)
            s.overlays = tuple(e.overlays if (e := entries.get((b.x, b.y))) else () for b in layout)
        s._mark = len(s.log)
        return s

    def say_terrain_notes(self, notes: str | Sequence[str]) -> None:
        """Say in the log, one line each, which overlays the terrain applies and what it does not apply (an
        overlay, an SSR token VASL cannot apply): the same lines the ``asl-fire`` commands print on stderr."""
        for line in (notes.splitlines() if isinstance(notes, str) else notes):
            if line.strip():
                self.say(f"{'⚠' if 'not applied' in line or 'no LOS rule' in line else '·'} {line}")

    def adopt(self, other: FireSession) -> None:
        """Another game, loaded from the page (the load control): its Position, boards folder, crops, overlays,
        module, pieces and notes replace this session's.  The undo history starts again there: an undo never
        goes back into another game (whose map, board art and module are gone)."""
        self.position = other.position
        self.source, self.read_only_source = other.source, other.read_only_source
        self.boards_dir, self.crops, self.overlays = other.boards_dir, other.crops, other.overlays
        self.vasl, self.unit_pieces = other.vasl, other.unit_pieces
        for stack in (self.undo_stack, self.redo_stack, self.undo_labels, self.redo_labels, self.undo_spans,
                      self.redo_spans, self.hut_picks):
            stack.clear()
        self.undone_spans.clear()
        self.selected_unit = None
        self.forecast_result, self.forecast_stale = None, None
        self.say(f"loaded {other.source}: {other.position.name or 'position'}, {other.position.clock}")
        for line in other.log:
            self.say(line)
        self._changed("position", "another game was loaded")

    def replace_position(self, pos: Position, source: str) -> None:
        """Load another Position (the history is kept, so undo goes back)."""
        self._push(pos, f"loaded {source}")
        self.source = source

    # -- history -------------------------------------------------------------
    def _changed(self, what: str, why: str = "") -> None:
        self._odds = None
        if what == "log":
            self._last_title = ""
        if what == "position":
            self._program = None
            if self.forecast_result is not None and self.forecast_stale is None:
                self.forecast_stale = why or "the position changed"
        self._mark = len(self.log)
        for f in self.listeners:
            f(what)

    def _push(self, pos: Position, note: str | None = None, label: str | None = None) -> None:
        what = label or note or self._last_title or "last change"
        self.undo_stack.append(self.position)
        self.undo_labels.append(what)
        self.redo_stack.clear()
        self.redo_labels.clear()
        self.redo_spans.clear()
        self.position = pos
        if note:
            self.say(note)
        self.undo_spans.append((self._mark, len(self.log)))
        self._last_title = ""
        self._changed("position", f"after {what}")

    def undo(self) -> bool:
        """Go back one action, saying which; False if there is nothing to undo."""
        if not self.undo_stack:
            self.say("nothing to undo")
            return False
        what = self.undo_labels.pop() if self.undo_labels else "last change"
        if self.undo_spans:
            span = self.undo_spans.pop()
            self.undone_spans.add(span)
            self.redo_spans.append(span)
        self.redo_stack.append(self.position)
        self.redo_labels.append(what)
        self.position = self.undo_stack.pop()
        self.say(f"undo: {what} (back to {self.position.clock})")
        self._changed("position", f"after undoing {what}")
        return True

    def redo(self) -> bool:
        """Redo one undone action, saying which; False if there is nothing to redo."""
        if not self.redo_stack:
            self.say("nothing to redo")
            return False
        what = self.redo_labels.pop() if self.redo_labels else "last change"
        if self.redo_spans:
            span = self.redo_spans.pop()
            self.undone_spans.discard(span)
            self.undo_spans.append(span)
        self.undo_stack.append(self.position)
        self.undo_labels.append(what)
        self.position = self.redo_stack.pop()
        self.say(f"redo: {what} (now {self.position.clock})")
        self._changed("position", f"after redoing {what}")
        return True

    def undone_lines(self) -> set[int]:
        """The log lines (indices) of actions undone and not redone."""
        return {k for a, b in self.undone_spans for k in range(a, b)}

    def select_unit(self, unit_id: str) -> None:
        """Choose a unit of the Position for the FT/MOL attack (as the firer) and Heat of Battle (A22, A15)."""
        u = next((x for x in self.position.units if x.id == unit_id), None)
        if u is None:
            raise BadInput(f"no unit {unit_id!r} in the position")
        self.selected_unit = u.id
        self.attack_form = replace(self.attack_form, firer_unit=u.id)
        self.hob_form = replace(self.hob_form, unit_id=u.id)
        state = ", ".join(k for k, on in (("broken", u.broken), ("pinned", u.pinned), ("berserk", u.berserk),
                                            ("CX", u.is_cx)) if on)
        self.say(f"selected {u.id}: {u.name} {u.side}{f' ({state})' if state else ''} in "
                 f"{self.position.loc_name(u.location)} — the FT/MOL firer and the Heat of Battle unit")
        self._changed("form")

    def say(self, line: str) -> None:
        """Add a line to the log (the whole history is kept)."""
        self.log.append(line)

    def _report(self, rep: Report) -> None:
        self._last_title = rep.title
        self.say(f"— {rep.title}")
        if not rep.events:
            self.say("   (nothing to do)")
        for e in rep.events:
            self.say(f"   {e.describe()}")

    # -- clicks --------------------------------------------------------------
    def location_at(self, h: Hex) -> Location:
        """The Location a click on *h* means: the chosen level if the hex has it, else ground level."""
        m = self.position.map
        for loc in m.locations(h):
            if loc.level == self.level and not loc.rooftop:
                return loc
        return Location(h)

    def click(self, h: Hex) -> None:
        """Apply the current tool to hex *h*; bad clicks are logged, never raised."""
        if h not in self.position.map.hexes:
            return
        try:
            getattr(self, f"_tool_{self.tool}")(self.location_at(h))
        except BadInput as e:
            from .phases import phase_hint

            self.say(f"✗ {e}{phase_hint(str(e), self.position.clock)}")

    def _tool_inspect(self, loc: Location) -> None:
        info = self.hover(loc.hex)
        self.say(f"{info.name}: " + "; ".join(info.lines))

    def _established(self) -> int:
        return self.position.clock.player_turn - 1

    def _burnable(self, loc: Location) -> None:
        t = self.position.map.terrain_at(loc)
        if not t.burnable:
            raise BadInput(f"{self.position.loc_name(loc)} holds {t.label}, which cannot burn (B25.1)")

    def _tool_flame(self, loc: Location) -> None:
        self._burnable(loc)
        pos = self.position
        if pos.blaze_at(loc) is not None:
            raise BadInput(f"{pos.loc_name(loc)} already holds a Blaze (B25.15)")
        new = pos.add_fire(Fire(loc, FireKind.FLAME, since=self._established()))
        self._push(new, f"Flame placed in {pos.loc_name(loc)} (burning since last Player Turn, B25.15)")

    def _tool_blaze(self, loc: Location) -> None:
        self._burnable(loc)
        pos = self.position
        new = pos.add_fire(Fire(loc, FireKind.BLAZE, since=self._established()))
        self._push(new, f"Blaze placed in {pos.loc_name(loc)} (it may spread this AFPh, B25.6)")

    def _tool_wreck(self, loc: Location) -> None:
        pos = self.position
        ground = Location(loc.hex)
        new = add_burning_wreck(pos, ground, name="Burning Wreck")
        new = replace(new, wrecks=(*new.wrecks[:-1], replace(new.wrecks[-1], since=self._established())))
        self._push(new, f"Burning Wreck placed in {pos.loc_name(ground)} (B25.14)")

    def _tool_remove(self, loc: Location) -> None:
        pos = self.position
        h = loc.hex
        fires = tuple(f for f in pos.fires if f.location.hex != h)
        wrecks = tuple(w for w in pos.wrecks if w.location.hex != h)
        if len(fires) == len(pos.fires) and len(wrecks) == len(pos.wrecks):
            raise BadInput(f"{pos.map.hex_name(h)} holds no fire or wreck to remove")
        self._push(replace(pos, fires=fires, wrecks=wrecks), f"fires and wrecks removed from {pos.map.hex_name(h)}")

    def _tool_kindling(self, loc: Location) -> None:
        pos = self.position
        unit, leader = KINDLERS[self.kindler]
        new, rep = kindling_attempt(pos, loc, unit, self.dice, side=pos.attacker, leader_drm=leader)
        self._report(rep)
        if new is not pos:
            self._push(new)
        else:
            self._changed("log")

    def _fire_start(self, new: Position, rep: Report) -> None:
        self._report(rep)
        if new is not self.position:
            self._push(new)
        else:
            self._changed("log")

    def _tool_wp(self, loc: Location) -> None:
        """WP placed in the hex: the placing player's WP fire DR, in his MPh (A24.32)."""
        from asl_vassal_bridge.core.firestarts import wp_fire_start

        self._fire_start(*wp_fire_start(self.position, Location(loc.hex), self.dice))

    def _tool_he(self, loc: Location) -> None:
        """An HE/HEAT or DC attack on the Location rolled an Original KIA: the B25.13 fire-start DR."""
        from asl_vassal_bridge.core.firestarts import he_fire_start

        self._fire_start(*he_fire_start(self.position, loc, self.dice, original_kia=True))

    def _tool_hut(self, loc: Location) -> None:
        """An attack vs a hut Location (Small Arms PBF/TPBF, MOL, MG, IFE, DC or HE) rolled an Original colored
        dr 1: a Flame in the hut, even a Collapsed one (huts)."""
        from asl_vassal_bridge.core.dice import Roll
        from asl_vassal_bridge.core.firestarts import HutAttack, hut_fire_start

        pos = self.position
        self._fire_start(*hut_fire_start(pos, Location(loc.hex), HutAttack.SMALL_ARMS_PBF_TPBF, original=Roll(1)))

    def _tool_huts(self, loc: Location) -> None:
        """One attack vs several hut Locations: each click adds (or takes back) a hut Location it affected;
        :meth:`roll_huts` then places its Flame (huts)."""
        pos = self.position
        ground = Location(loc.hex)
        if pos.map.terrain_at(ground) is not Terrain.HUT:
            raise BadInput(f"{pos.loc_name(ground)} holds {pos.map.terrain_at(ground).label}, not a hut (huts)")
        if ground in self.hut_picks:
            self.hut_picks.remove(ground)
        else:
            self.hut_picks.append(ground)
        names = ", ".join(pos.loc_name(h) for h in self.hut_picks) or "none"
        self.say(f"huts one attack affected: {names} — 'roll hut Flame' places its Flame (an Original colored "
                 "dr 1), by Random Selection among them (huts)")

    def roll_huts(self) -> None:
        """The attack vs the picked hut Locations rolled an Original colored dr 1: one Flame, in the hut
        Location Random Selection picks when more than one could take it (huts)."""
        from asl_vassal_bridge.core.dice import Roll
        from asl_vassal_bridge.core.firestarts import HutAttack, huts_fire_start

        if not self.hut_picks:
            raise BadInput("no hut Location picked: click them with the huts tool first (huts)")
        picks, self.hut_picks = self.hut_picks, []
        self._fire_start(*huts_fire_start(self.position, picks, HutAttack.SMALL_ARMS_PBF_TPBF, self.dice,
                                          original=Roll(1)))

    def _tool_attack(self, loc: Location) -> None:
        """The FT/MOL tool: clicks set the firer, then the target, alternately (A22)."""
        pos = self.position
        name = pos.loc_name(loc)
        if self._attack_pick == "firer":
            self.set_attack(firer=name, firer_unit="")
            self._attack_pick = "target"
            self.say(f"attack: firer {name} — now click the target")
        else:
            self.set_attack(target=name)
            self._attack_pick = "firer"
            pv = self.attack_preview()
            self.say(f"attack: target {name} — " + ("legal" if pv.legal else f"not allowed: {pv.refusal}"))

    # -- FT / MOL attacks (A22) -------------------------------------------------------
    def set_attack(self, **changes: Any) -> AttackPreview:
        """Change the FT/MOL form (fields of :class:`AttackForm`) and return the new preview."""
        self.attack_form = replace(self.attack_form, **changes)
        self._changed("form")
        return self.attack_preview()

    def attack_preview(self) -> AttackPreview:
        """Legality (or the refusing rule), FP, DRMs with rules and the MOL Check chance of the form (A22)."""
        return attack_preview(self.position, self.attack_form)

    def resolve_attack(self) -> bool:
        """Roll the declared FT/MOL attack with the session's dice and apply its consequences (undoable).

        Logs every roll and consequence with its rule; an illegal declaration is logged with the refusing
        rule and nothing changes.  True if the attack was resolved.
        """
        from asl_vassal_bridge.core.flamethrower import FtPlan, resolve_ft_attack
        from asl_vassal_bridge.core.molotov import resolve_mol_attack

        pv = self.attack_preview()
        if not pv.legal or pv.plan is None or pv.position is None:
            self.say(f"✗ {self.attack_form.weapon} attack not allowed: {pv.refusal}")
            self._changed("log")
            return False
        plan, p = pv.plan, pv.position
        ift = self.attack_form.ift_result.strip() or None
        if isinstance(plan, FtPlan):
            out = resolve_ft_attack(p, plan, self.dice, ift_result=ift)
        else:
            out = resolve_mol_attack(p, plan, self.dice, ift_result=ift)
        self._report(out.report)
        for c in out.consequences:
            self.say(f"   ⇒ {c.describe()}")
        new = out.position
        cur = self.position
        if (new.fires, new.wrecks, new.units) != (cur.fires, cur.wrecks, cur.units):
            self._push(replace(new, clock=cur.clock))  # the form's phase never moves the game clock
        else:
            self._changed("log")
        return True

    # -- Heat of Battle (A15) ----------------------------------------------------------
    def set_hob(self, **changes: Any) -> HobPreview:
        """Change the Heat of Battle form (fields of :class:`HobForm`) and return the new preview."""
        self.hob_form = replace(self.hob_form, **changes)
        self._changed("form")
        return self.hob_preview()

    def hob_preview(self) -> HobPreview:
        """The unit's Heat of Battle DRMs and the exact chance of each result (A15.1)."""
        return hob_preview(self.position, self.hob_form)

    def roll_hob(self) -> bool:
        """Roll Heat of Battle for the form's unit and log the result and consequences with their rules (A15).

        A unit of the Position that goes Berserk is marked berserk (A15.4); a Surrender/Disruption
        result breaks it (A15.5); Battle Hardening exchanges it for its new type when there is one
        (A15.3; several with equal gain are left to the owner); a hero created beside an MMC is added
        to its Location (A15.21) — each undoable (undo also refuses Battle Hardening).  True if a DR
        was rolled.
        """
        from asl_vassal_bridge.core.heat_of_battle import HobResult, heat_of_battle

        from .attacks import hob_situation, hob_unit

        pv = self.hob_preview()
        if not pv.ok:
            self.say(f"✗ Heat of Battle: {pv.error}")
            self._changed("log")
            return False
        unit, cat, _ = hob_unit(self.position, self.hob_form)
        hob = heat_of_battle(unit, self.dice, hob_situation(self.hob_form), cat)
        self._report(hob.report())
        pos = self.position
        u = next((x for x in pos.units if x.id == self.hob_form.unit_id), None)
        if u is not None:
            nu, done = u, []
            if HobResult.BERSERK in hob.results:
                nu = replace(nu, berserk=True, broken=False, pinned=False, cx=False)
                done.append("marked berserk (A15.4)")
            if HobResult.SURRENDER in hob.results or HobResult.DISRUPTION in hob.results:
                nu = replace(nu, broken=True)
                done.append("marked broken (A15.5)")
            bh = hob.hardening
            if bh is not None and bh.after is not None and len(bh.options) <= 1 and " or " not in bh.after:
                nu = replace(nu, name=bh.after, **({"broken": False, "pinned": False} if bh.rallied else {}))
                done.append(f"now a {bh.after} (A15.3; undo to refuse)")
            elif bh is not None and bh.after is not None:
                self.say(f"   {u.id}: the owner picks {bh.after} (A15.3): change the unit by hand")
            units = tuple(nu if x is u else x for x in pos.units)
            hero = hob.hero
            if hero is not None and hero.heroic_leader is None:
                taken = {x.id for x in pos.units}
                hid = next(h for i in range(len(taken) + 1) if (h := f"{u.id}-hero{i or ''}") not in taken)
                units += (Unit(hid, str(hero.hero), u.side, u.location, UnitKind.HERO),)
                done.append(f"a {hero.hero} hero {hid} beside it (A15.21)")
            elif hero is not None and hero.rallied:
                nu2 = replace(nu, broken=False)
                units = tuple(nu2 if x is nu else x for x in units)
                done.append("rallied as a heroic leader (A15.21)")
            if units != pos.units:
                self._push(replace(pos, units=units), f"   {u.id} " + "; ".join(done))
                return True
        self._changed("log")
        return True

    # -- environment -----------------------------------------------------------
    def set_wind(self, force: WindForce, direction: Direction | None) -> None:
        """Set Wind Force and Direction (B25.63, B25.64)."""
        if force is WindForce.NO_WIND:
            wind = Wind()
        elif direction is None:
            raise BadInput(f"{force.label} needs a Wind Direction 1–6 (B25.64)")
        else:
            wind = Wind(force, direction)
        pos = self.position
        if wind == pos.environment.wind:
            return
        self._push(replace(pos, environment=replace(pos.environment, wind=wind)), f"wind set: {wind}")

    def set_ec(self, ec: EC) -> None:
        """Set the Environmental Conditions (B25.5)."""
        pos = self.position
        if ec is pos.environment.ec:
            return
        self._push(replace(pos, environment=replace(pos.environment, ec=ec)), f"EC set: {ec.label} ({ec.drm:+d})")

    # -- phases ---------------------------------------------------------------
    def rph(self) -> None:
        """The RPh Wind Change DR (B25.65; Gusts B25.651, Collapse B25.66); starts the next Player Turn if needed."""
        new, rep = rally_phase(self.position, self.dice)
        self._report(rep)
        self._push(new, label=f"RPh wind change of {replace(new.clock, phase=Phase.RPH)}")

    def afph(self) -> None:
        """The end-of-AFPh upkeep: Flame→Blaze, then Spreading Fire (B25.151, B25.6); at the RPh, that RPh first.

        Refused, as ``asl-fire upkeep`` refuses it, once the AFPh is past.
        """
        pos = self.position
        try:
            new, rep = end_of_afph(pos, self.dice)
        except BadInput as e:
            self.say(f"✗ {e}")
            self._changed("log")
            return
        self._report(rep)
        self._push(new, label=f"end-of-AFPh upkeep of {replace(new.clock, phase=Phase.AFPH)}")

    def next_phase(self) -> None:
        """The phase control's "next": leaving the RPh rolls its Wind Change DR, leaving the AFPh its fire upkeep
        (as ``asl-fire upkeep`` does); every other step moves the clock one phase on."""
        from .phases import step_clock

        c = self.position.clock
        if c.phase is Phase.RPH:
            self.rph()
        elif c.phase is Phase.AFPH:
            self.afph()
        else:
            to = step_clock(c)
            self._push(replace(self.position, clock=to), f"clock: {c} → {to}", label=f"next phase ({to})")

    def previous_phase(self) -> None:
        """The phase control's "previous": the clock one phase back; nothing is rolled or taken back (undo does
        that)."""
        from .phases import previous_clock

        c = self.position.clock
        to = previous_clock(c)
        if to is None:
            raise BadInput(f"{c} is the first phase of the game")
        self._push(replace(self.position, clock=to), f"clock set back: {c} → {to} (nothing rolled or undone; "
                   "undo takes rolls back)", label=f"previous phase ({to})")

    def set_phase(self, phase: Phase) -> None:
        """The phase control's "jump to": this Player Turn's *phase*; the phases between are not played."""
        c = self.position.clock
        if phase is c.phase:
            return
        to = replace(c, phase=phase)
        self._push(replace(self.position, clock=to), f"clock set: {c} → {to} (nothing rolled: the phases between "
                   "were not played)", label=f"jump to {phase.value}")

    def step(self, turns: int = 1) -> None:
        """Play *turns* Player Turns of fire upkeep (RPh wind, end-of-AFPh), as one undoable step."""
        if turns < 1:
            raise BadInput(f"turns must be at least 1, not {turns}")
        pos = self.position
        for _ in range(turns):
            pos, rep = play_player_turn(pos, self.dice)
            self._report(rep)
        self._push(pos, f"played {turns} Player Turn{'s' if turns != 1 else ''}: now {pos.clock}")

    # -- odds -------------------------------------------------------------------
    @property
    def odds(self) -> dict[Location, SpreadCheck]:
        """Exact chance each Location catches fire at the next end of the AFPh from the clock on (B25.6), from its
        best source: this Player Turn's up to its AFPh, else the next one's, as ``asl-fire odds`` counts them."""
        if self._odds is None:
            self._odds = pending_spreads(pending_from_clock(self.position)[1])
        return self._odds

    def odds_by_hex(self) -> dict[Hex, float]:
        """The one-phase odds, the highest per hex."""
        out: dict[Hex, float] = {}
        for loc, sc in self.odds.items():
            out[loc.hex] = max(out.get(loc.hex, 0.0), float(sc.chance))
        return out

    def hover(self, h: Hex) -> HoverInfo:
        """The hex's Locations: terrain, fires, and for Burnable Locations the exact chance of fire this AFPh."""
        current = self.forecast_result if self.forecast_stale is None else None
        return hover_info(self.position, self.odds, current, h)

    def run_forecast(self, turns: int, trials: int, seed: int | None = None,
                     progress: Callable[[float], None] | None = None,
                     partial: Callable[[Forecast], None] | None = None) -> Forecast:
        """The multi-turn forecast of the current Position (kept for the overlay).

        *partial* is called with the forecast of the trajectories done so far after each chunk but the last
        (kept for the overlay too, until the whole forecast replaces it).
        """
        if self._program is None:
            self._program = compile_position(self.position)

        def so_far(fc: Forecast) -> None:
            self.forecast_result = fc
            self.forecast_stale = None
            if partial is not None:
                partial(fc)

        # One core: measured faster than a process pool on a busy 2-core machine, and the progress bar moves
        # every Player Turn of every chunk (the result is the same either way).
        fc = forecast(self.position, turns, trials, seed, progress=progress, program=self._program, processes=1,
                      partial=so_far if partial is not None else None)
        self.forecast_result = fc
        self.forecast_stale = None
        self.say(f"forecast: {trials} trajectories over {turns} Player Turns (seed {seed})")
        return fc

    def status(self) -> str:
        """Turn, phase, EC and wind, as a one-liner."""
        return status_line(self.position)
