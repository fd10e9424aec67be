"""VASL's Phase Track counter, read from VASL 6.5's own PieceSlot definitions, every layer level → its Clock."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.position import Clock, Phase
from asl_vassal_bridge.vasl.counters import BadCounterState
from asl_vassal_bridge.vasl.module import ModuleIndex, PieceSlot, read_module
from asl_vassal_bridge.vasl.phasetrack import (
    PHASE_TRACK_GPIDS,
    PHASE_TRACK_NAMES,
    is_phase_track,
    phase_track_from_piece,
)
from asl_vassal_bridge.vasl.traits import Trait

from .conftest import vasl_file

#: The variants in VASL 6.5's buildFile: gpid → (first side, second side).
VARIANTS = {"297": ("Allied", "Axis"), "300": ("Axis", "Allied"), "3b5:10935": ("UN", "Communist"),
            "3b5:10947": ("Communist", "UN")}


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.5.xml"))


@pytest.fixture(scope="module")
def tracks(vasl65: ModuleIndex) -> dict[str, PieceSlot]:
    return {s.gpid: s for s in vasl65.slots if s.name.startswith("Phase Track")}


def _at(traits: tuple[Trait, ...], **levels: int) -> list[Trait]:
    """The traits with the named Layer traits set to the given levels."""
    out = []
    for t in traits:
        fields = t.fields
        if t.id == "emb2" and len(fields) > 19 and fields[19] in levels:
            t = Trait(t.type, str(levels[fields[19]]))
        out.append(t)
    return out


def test_every_phase_track_variant_of_vasl65_is_known(tracks: dict[str, PieceSlot]) -> None:
    assert set(tracks) == set(PHASE_TRACK_GPIDS)
    assert {s.name for s in tracks.values()} == PHASE_TRACK_NAMES
    for gpid, slot in tracks.items():
        assert is_phase_track(slot.name, gpid) and is_phase_track(slot.name, None)


@pytest.mark.parametrize("gpid", sorted(VARIANTS))
def test_a_new_track_shows_the_first_players_turn_1_rph(tracks: dict[str, PieceSlot], gpid: str) -> None:
    track = phase_track_from_piece(tracks[gpid].traits)
    assert track.clock == Clock(1, 1, Phase.RPH)
    assert (track.first, track.second, track.side) == (*VARIANTS[gpid], VARIANTS[gpid][0])


@pytest.mark.parametrize("gpid", sorted(VARIANTS))
def test_every_layer_level_gives_its_clock(tracks: dict[str, PieceSlot], gpid: str) -> None:
    traits = tracks[gpid].traits
    for turn in range(1, 11):
        for half in (1, 2):
            for i, phase in enumerate(Phase, start=1):
                track = phase_track_from_piece(_at(traits, Player=half, PhaseName=i, TurnName=turn))
                assert track.clock == Clock(turn, half, phase)
                assert track.side == VARIANTS[gpid][half - 1]


def test_the_snapshot_form_layers_and_basic_name(tracks: dict[str, PieceSlot]) -> None:
    """The live snapshot sends only the Layer traits and the BasicPiece name apart."""
    layers = [t for t in _at(tracks["300"].traits, Player=2, PhaseName=5, TurnName=3) if t.id == "emb2"]
    track = phase_track_from_piece(layers, "Phase Track Axis 1st")
    assert track.clock == Clock(3, 2, Phase.AFPH)
    assert track.side == "Allied"
    assert str(track) == "Turn 3, Allied Player Turn (Axis moves first), AFPh"


@pytest.mark.parametrize(("drop", "message"), [
    ("Player", "no Player layer"), ("PhaseName", "no PhaseName layer"), ("TurnName", "no TurnName layer")])
def test_a_track_without_a_layer_is_refused_naming_it(tracks: dict[str, PieceSlot], drop: str, message: str) -> None:
    traits = [t for t in tracks["297"].traits if not (t.id == "emb2" and t.fields[19] == drop)]
    with pytest.raises(BadCounterState, match=message):
        phase_track_from_piece(traits)


def test_a_level_the_track_has_not_got_is_refused(tracks: dict[str, PieceSlot]) -> None:
    with pytest.raises(BadCounterState, match=r"PhaseName layer is at level 9 .*RPh"):
        phase_track_from_piece(_at(tracks["297"].traits, PhaseName=9))
    with pytest.raises(BadCounterState, match="Player layer is at level 3"):
        phase_track_from_piece(_at(tracks["297"].traits, Player=3))


def test_a_name_that_contradicts_the_player_layer_is_refused(tracks: dict[str, PieceSlot]) -> None:
    layers = [t for t in tracks["297"].traits if t.id == "emb2"]
    with pytest.raises(BadCounterState, match=r"starts with 'Allied'.*expected 'Axis'"):
        phase_track_from_piece(layers, "Phase Track Axis 1st")
