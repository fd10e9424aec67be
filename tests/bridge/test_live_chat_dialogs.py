"""The chat and the dialogs as a player meets them in a real VASSAL engine (3.6 jar, Xvfb) with the extension (issue
33): a dialog left open past the client's read timeout still answers; a press's chat is ONE message that leads with
a summary line ("nothing changed" when so), one short line per roll; the dialogs read the game (the selected stack's
FT and units, the Phase Track's phase, the Location of a selected stack) and show FT-only and AFV-only fields only
when they apply.

The game: the standard fires, VASL's German squad with a FT and one with a MOL, and VASL's Phase Track at Turn 3,
Axis Player Turn, AFPh.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient, connect
from asl_vassal_bridge.bridge.phases import handle_button
from asl_vassal_bridge.vasl.traits import encode_sequence
from tests.support import vassal_harness as vh
from tests.support.vasl_counters import phase_track_at

from .conftest import standard_pieces, started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

SQUAD, FT, MOL = "11467", "2473", "490"
#: A read timeout far below the time a dialog stays open in these tests (the default is 30 s).
SHORT_TIMEOUT = 5.0


@pytest.fixture(scope="module")
def cleo(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    type_text, state_text = phase_track_at(turn=3, half=2, phase=5)  # Turn 3, Axis Player Turn, AFPh
    pieces = [*standard_pieces(),
              vh.GamePiece("phase-track", "J5", type=encode_sequence([type_text], "/"), state=state_text),
              vh.GamePiece("sq-ft", "G5", gpid=SQUAD), vh.GamePiece("ft", "G5", gpid=FT),
              vh.GamePiece("sq-mol", "E4", gpid=SQUAD), vh.GamePiece("mol", "E4", gpid=MOL),
              vh.GamePiece("sq-a", "A7", gpid=SQUAD), vh.GamePiece("sq-b", "A7", gpid=SQUAD)]
    with started_player("cleo", module_with_extension, support_jar, xvfb.display, engine_dir / "chatdialogs",
                        pieces=pieces, stacks=True) as (player, client):
        client.jvm.aslbridgetest.TestHooks.seedDice(20261129)
        yield player, client


def _hooks(client: BridgeClient) -> Any:
    return client.jvm.aslbridgetest.TestHooks


def _chat(client: BridgeClient) -> str:
    return str(_hooks(client).chatText())


def _lines(text: str) -> list[str]:
    """The chat's lines: one a line of the document, or (a line of one message) after the extension's indent."""
    return [ln.strip() for ln in re.split(r"\n|\s?\xa0\xa0\xa0", text) if ln.strip()]


def _shot(client: BridgeClient, name: str) -> None:
    """A screenshot of what the player sees, VASSAL's window 1280 pixels wide, when ``ASL_FIRE_SCREENSHOTS`` names a
    folder (for looking at the chat and the dialogs; nothing is asserted on it)."""
    folder = os.environ.get("ASL_FIRE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        _hooks(client).screenshot(str(Path(folder) / f"{name}.png"), 1280)


def _counters(client: BridgeClient) -> Counter[tuple[str, str]]:
    return Counter((str(p["name"]), str(p["location"])) for p in client.snapshot(with_terrain=False)["pieces"])


def _wait(what: Any, seconds: float = 20) -> bool:
    end = time.time() + seconds
    while not what() and time.time() < end:
        time.sleep(0.1)
    return bool(what())


@pytest.fixture(scope="module")
def short(cleo: Any) -> Iterator[BridgeClient]:
    """A second connection to the same VASSAL with a read timeout of :data:`SHORT_TIMEOUT` seconds, answering the
    toolbar's buttons (one for the module: as one `asl-fire bridge` serves a game)."""
    _, client = cleo
    conn = connect(port=client.info.port, token=client.info.token, timeout=SHORT_TIMEOUT)
    conn.listen(lambda action: handle_button(conn, action))
    yield conn
    conn.close()


def _open(client: BridgeClient, button: str) -> Any:
    hooks = _hooks(client)
    assert hooks.clickToolbar(button)
    # a loaded machine: the bridge reads the game before it opens the dialog
    assert _wait(hooks.formOpen, 60), _chat(client)[-600:]
    return hooks


@pytest.mark.parametrize("button", ["aslfire-attack", "aslfire-firestart"])
def test_dialog_open_past_the_timeout_is_answered_after_the_wait(cleo: Any, short: BridgeClient, button: str) -> None:
    """open_past_the_timeout: each dialog left open over twice the client's read timeout, then answered: the attack
    (the fire start) is rolled and placed, as if answered at once."""
    _, client = cleo
    hooks = _hooks(client)
    before = _counters(client)
    chat_before = _chat(client)
    if button == "aslfire-attack":
        hooks.select("sq-mol")
        hooks.scriptDice("1,1,3")  # MOL Check dr 1; attack DR colored 1: a Flame in E3 (A22.6111)
    else:
        hooks.select("sq-mol")
        hooks.scriptDice("6,5")  # the B25.13 DR after an Original KIA: 11 ≥ the woods' Kindle # 9
    _open(client, button)
    time.sleep(2 * SHORT_TIMEOUT + 1)  # the player thinks, longer than any one py4j call may take
    assert hooks.formOpen()
    if button == "aslfire-attack":
        hooks.setFormField("weapon", "MOL")
        hooks.setFormField("phase", "PFPh")
        hooks.setFormField("target", "E3")
    else:
        hooks.setFormField("kind", "HE")
        hooks.setFormField("at", "E3")
        hooks.setFormField("original_kia", "true")
    hooks.clickForm("ok")
    assert _wait(lambda: _counters(client) != before)
    new_chat = _chat(client)[len(chat_before):]
    assert _counters(client) - before == Counter({("Flame", "E3"): 1})
    assert "failed in Python" not in new_chat and "Py4J" not in new_chat
    hooks.undo()
    assert _counters(client) == before


def test_dialog_open_past_the_timeout_closes_itself_when_python_stops_waiting(cleo: Any) -> None:
    """open_past_the_timeout: a dialog nobody waits for any more (Python gone) closes itself and says why; nothing
    is rolled."""
    _, client = cleo
    hooks = _hooks(client)
    before = _counters(client)
    chat_before = _chat(client)
    form = client.api.openForm('{"title": "ASL fire bridge: test", "fields": []}')
    assert _wait(hooks.formOpen)
    # never polled: after the extension's aslfire.formStaleMs (20 s) the dialog closes itself
    assert _wait(lambda: not hooks.formOpen(), 40)
    assert "closed itself: Python stopped waiting" in _chat(client)[len(chat_before):]
    assert '"gone"' in str(client.api.pollForm(form, 10))
    assert _counters(client) == before


def test_summary_line_first_one_message_per_press_short_lines(cleo: Any, short: BridgeClient) -> None:
    """summary_line: the upkeep's chat is one message; its first line says what changed, each roll's line leads with
    the hex and the outcome, then VASSAL's DR, the DRMs and rules; most lines fit VASSAL's chat width."""
    _, client = cleo
    hooks = _hooks(client)
    messages = hooks.chatMessages()
    chat_before = _chat(client)
    assert hooks.clickToolbar("aslfire-upkeep")
    assert _wait(lambda: "PT6 AFPh upkeep" in _chat(client)[len(chat_before):])
    time.sleep(0.3)
    _shot(client, "chat-upkeep")
    assert hooks.chatMessages() == messages + 1  # every roll of the press in ONE chat message
    lines = _lines(_chat(client)[len(chat_before):])
    assert lines[0].startswith("- ASL fire bridge, PT6 AFPh upkeep: ")
    assert re.search(r"(new Flames? |Blazes? |Flame out|nothing changed|no other change)", lines[0])
    rolls = [ln for ln in lines if re.search(r": DR \d,\d", ln)]
    assert rolls and all(re.match(r"^[A-Z]{1,2}\d+(\.\d)?: (Flame|no spread|Blaze|still a Flame|Flame out) — ", ln)
                         for ln in rolls)
    assert all("(B25." in ln for ln in rolls)
    for ln in rolls:  # each DR said once
        dice = re.search(r"DR (\d,\d)", ln)
        assert dice is not None and ln.count(dice[1]) == 1
    assert not any("Mild Breeze to" in ln for ln in lines)  # the wind's effect in words
    short_ones = [ln for ln in lines if len(ln) <= 120]
    assert len(short_ones) >= 0.8 * len(lines), [ln for ln in lines if len(ln) > 120]
    undo_before = _chat(client)
    hooks.undo()
    undone = _chat(client)[len(undo_before):]
    assert "UNDO: ASL fire bridge, PT6 AFPh upkeep: " in undone and "<br>" not in undone and "span" not in undone


def test_summary_line_says_nothing_changed(cleo: Any, short: BridgeClient) -> None:
    """summary_line: a Wind change that changes nothing says so on its first line."""
    _, client = cleo
    hooks = _hooks(client)
    chat_before = _chat(client)
    hooks.scriptDice("3,4")  # Wind Change DR 7: no change (B25.65)
    assert hooks.clickToolbar("aslfire-wind")
    assert _wait(lambda: "RPh wind change" in _chat(client)[len(chat_before):])
    time.sleep(0.3)
    _shot(client, "chat-nothing-changed")
    lines = _lines(_chat(client)[len(chat_before):])
    assert lines[0].startswith("- ASL fire bridge, PT6 RPh wind change: nothing changed")
    assert any(ln.startswith("Wind Change (B25.65): DR 3,4") for ln in lines)
    hooks.undo()


def test_dialog_defaults_from_a_selected_ft_stack_and_the_phase_track(cleo: Any, short: BridgeClient) -> None:
    """dialog_defaults: with the squad-and-FT stack selected the FT/MOL dialog offers FT, the squad by its counter's
    name, the Phase Track's AFPh; the FT-only field shows with FT only, the AFV-only ones with an AFV target only."""
    _, client = cleo
    hooks = _hooks(client)
    hooks.select("sq-ft,ft")
    _open(client, "aslfire-attack")
    assert hooks.formField("weapon") == "FT"
    assert hooks.formField("firer") == "4-6-7 1sq"
    assert hooks.formField("phase") == "AFPh"
    assert hooks.formFieldShown("original_ift_result")
    assert not hooks.formFieldShown("basic_tk") and not hooks.formFieldShown("predesignated")
    _shot(client, "dialog-attack-ft")
    hooks.setFormField("afv", "true")
    assert hooks.formFieldShown("basic_tk") and hooks.formFieldShown("predesignated")
    hooks.setFormField("weapon", "MOL")
    assert not hooks.formFieldShown("original_ift_result")
    hooks.clickForm("cancel")
    assert _wait(lambda: not hooks.formOpen())
    # two squads of one name: the id only tells them apart
    hooks.select("sq-a,sq-b")
    _open(client, "aslfire-attack")
    assert hooks.formField("weapon") == "MOL"
    assert str(hooks.formChoices("firer")).split() == ["4-6-7", "1sq", "[sq-a]", "4-6-7", "1sq", "[sq-b]"]
    hooks.clickForm("cancel")
    assert _wait(lambda: not hooks.formOpen())


def test_dialog_defaults_fire_start_reads_the_selected_stacks_hex_and_the_phase_track(
        cleo: Any, short: BridgeClient) -> None:
    """dialog_defaults: with a stack selected the Fire start dialog's Location is its hex; its phase the track's; the
    HE-only and hut-only fields show for their fire start only."""
    _, client = cleo
    hooks = _hooks(client)
    hooks.select("sq-mol,mol")
    _open(client, "aslfire-firestart")
    assert hooks.formField("at") == "E4"
    assert hooks.formField("phase") == "AFPh"
    _shot(client, "dialog-firestart")
    assert hooks.formFieldShown("original_kia") and not hooks.formFieldShown("hut_attack")
    hooks.setFormField("kind", "WP")
    assert not hooks.formFieldShown("original_kia") and not hooks.formFieldShown("attack_dr")
    hooks.setFormField("kind", "hut")
    assert hooks.formFieldShown("hut_attack") and not hooks.formFieldShown("dc")
    hooks.clickForm("cancel")
    assert _wait(lambda: not hooks.formOpen())


def test_dialog_defaults_attack_by_the_counters_name_places_the_attacks_flame(cleo: Any, short: BridgeClient) -> None:
    """dialog_defaults: the firer answered as the counter names it attacks as the piece: a MOL Flame in E3."""
    _, client = cleo
    hooks = _hooks(client)
    before = _counters(client)
    chat_before = _chat(client)
    hooks.select("sq-mol,mol")
    hooks.scriptDice("1,1,3")
    _open(client, "aslfire-attack")
    assert hooks.formField("firer") == "4-6-7 1sq"
    hooks.setFormField("phase", "PFPh")
    hooks.setFormField("target", "E3")
    hooks.clickForm("ok")
    assert _wait(lambda: _counters(client) != before)
    _shot(client, "chat-attack")
    lines = _lines(_chat(client)[len(chat_before):])
    assert lines[0].startswith("- ASL fire bridge, MOL attack: German 4-6-7 1sq E4 → E3 (A22.6): Flame in E3")
    assert "".join(lines).count("(1,3)") == 1  # the attack DR once
    hooks.undo()
    assert _counters(client) == before
