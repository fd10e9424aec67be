"""A22 FT/MOL attacks and A15 Heat of Battle against a real VASSAL engine (3.6 jar, Xvfb) with the extension.

The game holds VASL's German 4-6-7 squad, FT and MOL counters (VASL 6.5's
slots, built by tests/support/vasl_counters.py).  The dice are
VASSAL's: the bridge rolls through ``GameModule.getRNG()``; the test only
chooses the faces it shows (``TestHooks.scriptDice``) so each rule's case
comes up.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.attacks import AttackRequest, run_attack
from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.hob import HobRequest, run_hob
from asl_vassal_bridge.bridge.phases import handle_button
from asl_vassal_bridge.vasl.pieces import is_broken
from tests.support import vassal_harness as vh

from .conftest import started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

SQUAD, FT, MOL = "11467", "2473", "490"


def attack_pieces() -> list[vh.GamePiece]:
    return [
        vh.GamePiece("sq-mol", "E4", gpid=SQUAD),  # Open Ground, adjacent to the Woods of E3
        vh.GamePiece("mol", "E4", gpid=MOL),
        vh.GamePiece("sq-brk", "C3", gpid=SQUAD),  # in Woods: his own Location burns on a colored 6
        vh.GamePiece("sq-ft", "G5", gpid=SQUAD),
        vh.GamePiece("ft", "G5", gpid=FT),
        vh.GamePiece("sq-hob", "H5", gpid=SQUAD),
        vh.GamePiece("sq-btn", "A6", gpid=SQUAD),
    ]


@pytest.fixture(scope="module")
def dora(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("dora", module_with_extension, support_jar, xvfb.display, engine_dir / "attacks",
                        pieces=attack_pieces(), stacks=True) as (_, client):
        yield client


def _script(client: BridgeClient, faces: Sequence[int]) -> None:
    client.jvm.aslbridgetest.TestHooks.scriptDice(",".join(str(f) for f in faces))


def _chat(client: BridgeClient) -> str:
    return str(client.jvm.aslbridgetest.TestHooks.chatText())


def _at(client: BridgeClient, name: str, hex_name: str) -> list[dict[str, Any]]:
    return [p for p in client.snapshot(with_terrain=False)["pieces"] if p["name"] == name
            and p["location"] == hex_name]


def _piece(client: BridgeClient, pid: str) -> dict[str, Any] | None:
    return next((p for p in client.snapshot(with_terrain=False)["pieces"] if p["id"] == pid), None)


def test_live_mol_colored_1_places_a_flame_and_one_undo_removes_it_a22_6111(dora: BridgeClient) -> None:
    client = dora
    assert not _at(client, "Flame", "E3")
    chat_before = _chat(client)
    _script(client, [1, 1, 3])  # MOL Check dr 1; attack DR colored 1, white 3
    res = run_attack(client, AttackRequest("mol", "sq-mol", "E3"))
    assert res.applied["rolls"] == 2 and len(res.applied["placed"]) == 1
    assert len(_at(client, "Flame", "E3")) == 1
    new_chat = _chat(client)[len(chat_before):]
    assert "MOL Check (A22.611): dr 1 " in new_chat and "IFT DR 4 (1,3) " in new_chat
    assert "A22.6111" in new_chat and "DRM" in new_chat
    assert new_chat.count("1,3") == 1  # the attack DR said once
    client.jvm.aslbridgetest.TestHooks.undo()
    assert not _at(client, "Flame", "E3")


def test_live_mol_colored_6_breaks_the_thrower_and_burns_his_location_a22_6111(dora: BridgeClient) -> None:
    client = dora
    before = _piece(client, "sq-brk")
    assert before is not None and not is_broken(before)
    _script(client, [1, 6, 2])
    res = run_attack(client, AttackRequest("mol", "sq-brk", "C4"))
    assert res.applied["changed"] == 1
    after = _piece(client, "sq-brk")
    assert after is not None and is_broken(after)  # flipped through VASL's own broken layer
    assert len(_at(client, "Flame", "C3")) == 1
    client.jvm.aslbridgetest.TestHooks.undo()
    undone = _piece(client, "sq-brk")
    assert undone is not None and not is_broken(undone) and not _at(client, "Flame", "C3")


def test_live_ft_malfunction_removes_the_ft_counter_a22_5(dora: BridgeClient) -> None:
    client = dora
    assert _piece(client, "ft") is not None
    chat_before = _chat(client)
    client.jvm.aslbridgetest.TestHooks.select("sq-ft,ft")  # the player clicked the stack
    _script(client, [5, 6])  # Original DR 11 ≥ X10
    res = run_attack(client, AttackRequest("ft", None, "G4"))
    assert res.applied["removed"] == 1
    assert _piece(client, "ft") is None and _piece(client, "sq-ft") is not None
    assert "A22.5" in _chat(client)[len(chat_before):]
    client.jvm.aslbridgetest.TestHooks.undo()
    assert _piece(client, "ft") is not None


def test_live_a_berserk_ft_firer_is_refused_in_its_pfph_and_fires_in_its_afph_a15_432(dora: BridgeClient) -> None:
    """A15.432: a berserk unit never fires in its PFPh (it must charge), but may in its AFPh; the refusal rolls
    no die and changes nothing."""
    from asl_vassal_bridge.core.errors import IllegalAction
    from asl_vassal_bridge.core.position import Phase

    client = dora
    before = _counters(client)
    _script(client, [2, 3])
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        run_attack(client, AttackRequest("ft", "sq-ft", "G4", Phase.PFPH, {"berserk": True}))
    assert _counters(client) == before
    chat_before = _chat(client)
    res = run_attack(client, AttackRequest("ft", "sq-ft", "G4", Phase.AFPH, {"berserk": True}))  # the scripted 2,3
    assert res.applied.get("removed", 0) == 0
    assert "FT attack" in _chat(client)[len(chat_before):]
    client.jvm.aslbridgetest.TestHooks.undo()


def test_live_he_fire_start_rolls_vassals_dice_places_the_flame_and_one_undo_removes_it_b25_13(
        dora: BridgeClient) -> None:
    from asl_vassal_bridge.bridge.firestarts import FireStartRequest, run_fire_start

    client = dora
    assert not _at(client, "Flame", "E3")
    chat_before = _chat(client)
    _script(client, [6, 5])  # the B25.13 DR after an Original KIA: 11 ≥ the woods' Kindle # 9
    res = run_fire_start(client, FireStartRequest("he", "E3", original_kia=True))
    assert res.applied["rolls"] == 1 and len(res.applied["placed"]) == 1
    assert len(_at(client, "Flame", "E3")) == 1
    new_chat = _chat(client)[len(chat_before):]
    assert "B25.13" in new_chat and "DR 6,5 " in new_chat
    client.jvm.aslbridgetest.TestHooks.undo()
    assert not _at(client, "Flame", "E3")


def test_live_hob_battle_hardening_on_a_piece_a15_3(dora: BridgeClient) -> None:
    client = dora
    chat_before = _chat(client)
    _script(client, [4, 4])
    res = run_hob(client, HobRequest("sq-hob"))
    assert res.hob is not None and res.applied is not None
    new_chat = _chat(client)[len(chat_before):]
    assert "Heat of Battle (A15.1): DR 4,4, " in new_chat and "Final 8" in new_chat
    assert "German 4-6-7" in new_chat and "/36" in new_chat and "A15.3" in new_chat
    piece = _piece(client, "sq-hob")
    assert piece is not None and piece["name"] == "4-6-8 Esq"  # VASL's class layer switched
    client.jvm.aslbridgetest.TestHooks.undo()
    piece = _piece(client, "sq-hob")
    assert piece is not None and piece["name"] == "4-6-7 1sq"


def test_live_hob_button_acts_on_the_selected_squad_a15(dora: BridgeClient) -> None:
    client = dora
    client.jvm.aslbridgetest.TestHooks.select("sq-btn")
    chat_before = _chat(client)
    _script(client, [6, 5])  # Final 11: Berserk
    client.listen(lambda action: handle_button(client, action))
    try:
        client.press("hob")
        _chat_until(client, chat_before, "Heat of Battle", 20)
    finally:
        client.api.clearListener()
    new_chat = _chat(client)[len(chat_before):]
    assert "Heat of Battle (A15.1): DR 6,5, " in new_chat and "Berserk" in new_chat
    assert "A15.4" in new_chat
    client.jvm.aslbridgetest.TestHooks.undo()


def test_asl_fire_bridge_attack_command_rolls_and_applies_a22_611(dora: BridgeClient, capsys: Any,
                                                                  tmp_path: Path) -> None:
    from asl_vassal_bridge.cli import main

    client = dora
    conn = str(client.info.port)
    token = _token_file(client, tmp_path)
    chat_before = _chat(client)
    _script(client, [6, 3, 4])  # MOL Check dr 6 (+1 vs a non-AFV): fails; the squad attacks without it
    rc = main(["bridge", "--port", conn, "--token-file", token, "attack", "mol", "--firer", "sq-mol",
               "--target", "E3", "--cx"])
    out = capsys.readouterr().out
    assert rc == 0 and "MOL Check" in out and "applied as one VASSAL command" in out
    new_chat = _chat(client)[len(chat_before):]
    assert "MOL Check (A22.611): dr 6 " in new_chat and "CX" in new_chat
    assert not _at(client, "Flame", "E3")
    client.jvm.aslbridgetest.TestHooks.undo()
    # bad declarations are one clear line, nothing rolled
    assert main(["bridge", "--port", conn, "--token-file", "/nonexistent", "hob", "--piece", "x"]) != 0


def _counters(client: BridgeClient) -> Counter[tuple[str, str]]:
    return Counter((str(p["name"]), str(p["location"])) for p in client.snapshot(with_terrain=False)["pieces"])


def _open_dialog(client: BridgeClient, button: str) -> Any:
    hooks = client.jvm.aslbridgetest.TestHooks
    assert hooks.clickToolbar(button)
    end = time.time() + 20
    while not hooks.formOpen() and time.time() < end:
        time.sleep(0.1)
    assert hooks.formOpen()
    return hooks



def _chat_until(client: BridgeClient, before: str, text: str, seconds: float = 30) -> str:
    """The chat since *before* once it holds *text* (or *seconds* have passed)."""
    end = time.time() + seconds
    while text not in _chat(client)[len(before):] and time.time() < end:
        time.sleep(0.1)
    return _chat(client)[len(before):]


def _token_file(client: BridgeClient, tmp_path: Path) -> str:
    """The connection's token in a file only this user reads, as ``asl-fire bridge --token-file`` wants it."""
    token = tmp_path / "token"
    token.write_text(client.info.token)
    token.chmod(0o600)
    return str(token)


def test_ft_mol_button_dialog_places_what_the_attack_command_places_a22_6111(dora: BridgeClient, tmp_path: Path,
                                                                            capsys: Any) -> None:
    from asl_vassal_bridge.cli import main

    client = dora
    hooks = client.jvm.aslbridgetest.TestHooks
    before = _counters(client)
    hooks.select("sq-mol")  # the player clicked the squad, then the toolbar's FT/MOL attack button
    chat_before = _chat(client)
    _script(client, [1, 1, 3])  # MOL Check dr 1; attack DR colored 1 (a Flame, A22.6111), white 3
    client.listen(lambda action: handle_button(client, action))
    try:
        _open_dialog(client, "aslfire-attack")
        hooks.setFormField("weapon", "MOL")
        hooks.setFormField("target", "E3")
        hooks.clickForm("ok")
        _chat_until(client, chat_before, "MOL attack by")
        time.sleep(0.5)
    finally:
        client.api.clearListener()
    new_chat = _chat(client)[len(chat_before):]
    assert "MOL Check (A22.611): dr 1 " in new_chat and "(1,3)" in new_chat and "A22.6111" in new_chat
    assert "DRM" in new_chat
    by_button = _counters(client) - before
    assert by_button == Counter({("Flame", "E3"): 1})
    hooks.undo()  # ONE Undo reverts the whole attack
    assert _counters(client) == before
    # the same declaration and dice from the terminal place the same counters
    token = _token_file(client, tmp_path)
    _script(client, [1, 1, 3])
    assert main(["bridge", "--port", str(client.info.port), "--token-file", token, "attack", "mol",
                 "--firer", "sq-mol", "--target", "E3"]) == 0
    capsys.readouterr()
    assert _counters(client) - before == by_button
    hooks.undo()
    # a cancelled dialog rolls nothing
    client.listen(lambda action: handle_button(client, action))
    try:
        chat_before = _chat(client)
        _open_dialog(client, "aslfire-attack")
        hooks.clickForm("cancel")
        _chat_until(client, chat_before, "cancelled", 20)
    finally:
        client.api.clearListener()
    assert "nothing rolled" in _chat(client)[len(chat_before):] and _counters(client) == before


def test_fire_start_button_dialog_places_what_the_firestart_command_places_b25_13(dora: BridgeClient,
                                                                                   tmp_path: Path,
                                                                                   capsys: Any) -> None:
    from asl_vassal_bridge.cli import main

    client = dora
    hooks = client.jvm.aslbridgetest.TestHooks
    before = _counters(client)
    hooks.select("sq-brk")  # the squad in the Woods of C3, hit by an HE attack the players resolved
    chat_before = _chat(client)
    _script(client, [6, 5])  # the B25.13 DR after an Original KIA: 11 ≥ the woods' Kindle # 9
    client.listen(lambda action: handle_button(client, action))
    try:
        _open_dialog(client, "aslfire-firestart")
        assert hooks.formField("at") == "C3"  # the selected counter's hex
        hooks.setFormField("kind", "HE")
        hooks.setFormField("original_kia", "true")
        hooks.clickForm("ok")
        _chat_until(client, chat_before, "B25.13")
        time.sleep(0.5)
    finally:
        client.api.clearListener()
    new_chat = _chat(client)[len(chat_before):]
    assert "DR 6,5 " in new_chat and "B25.13" in new_chat
    by_button = _counters(client) - before
    assert by_button == Counter({("Flame", "C3"): 1})
    hooks.undo()  # ONE Undo takes the Flame back
    assert _counters(client) == before
    # the same fire start and dice from the terminal place the same counters
    token = _token_file(client, tmp_path)
    _script(client, [6, 5])
    assert main(["bridge", "--port", str(client.info.port), "--token-file", token, "firestart", "he",
                 "--at", "C3", "--phase", "MPh", "--original-kia"]) == 0
    capsys.readouterr()
    assert _counters(client) - before == by_button
    hooks.undo()
    # a cancelled dialog rolls nothing; a bad answer says which field, and rolls nothing either
    client.listen(lambda action: handle_button(client, action))
    try:
        for answer, said in ((None, "fire start cancelled; nothing rolled"),
                             ("1,9", "attack DR '1,9': die faces are 1 to 6")):
            chat_before = _chat(client)
            _open_dialog(client, "aslfire-firestart")
            if answer is None:
                hooks.clickForm("cancel")
            else:
                hooks.setFormField("attack_dr", answer)
                hooks.clickForm("ok")
            assert said in _chat_until(client, chat_before, said, 20)
            assert "ASL fire bridge, " not in _chat(client)[len(chat_before):] and _counters(client) == before
    finally:
        client.api.clearListener()
