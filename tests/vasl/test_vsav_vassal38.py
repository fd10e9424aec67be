"""Saved games and logs as each VASSAL writes them: VASSAL 3.8's ``VOBS`` + one raw key byte + the bytes XOR key
(vassalengine/vassal PR #15060), the ``!VCSK`` hex form of VASSAL up to 3.7, and plain text, read alike."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from asl_vassal_bridge.vasl.vsav import BadSavedGameError, deobfuscate, obfuscate, read_vsav, read_vsav_bytes

from .builders import make_vsav


def vobs(text: str, key: int) -> bytes:
    """VASSAL 3.8's ObfuscatingOutputStream: ``VOBS``, the key (1–255) as one byte, each byte XOR key."""
    return b"VOBS" + bytes([key]) + bytes(b ^ key for b in text.encode("utf-8"))


def with_saved_game(vsav: bytes, saved_game: bytes) -> bytes:
    """The same .vsav zip with its ``savedGame`` member replaced."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(vsav)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, saved_game if info.filename == "savedGame" else src.read(info))
    return out.getvalue()


TEXT = "begin_save\x1b\x1bbd\t0\t0\t01\tVER\t6.1\t\x1bend_save"


@pytest.mark.parametrize("key", [1, 0x5A, 0xD8, 0xFF])
def test_vobs_is_read_as_vcsk_and_plain_text(key: int) -> None:
    assert deobfuscate(vobs(TEXT, key), "g.vsav") == TEXT
    assert deobfuscate(obfuscate(TEXT, key), "g.vsav") == TEXT
    assert deobfuscate(TEXT.encode(), "g.vsav") == TEXT


@pytest.mark.parametrize("suffix", [".vsav", ".vlog"])
def test_a_vassal_38_save_or_log_reads_like_the_older_forms(tmp_path: Path, suffix: str) -> None:
    older = make_vsav([], boards="bd\t0\t0\t01\tVER\t6.1\tbd\t1\t0\tr22\tVER\t6.1\t")
    plain_text = deobfuscate(zipfile.ZipFile(io.BytesIO(older)).read("savedGame"), "older")
    games = {}
    for form, saved_game in {"!VCSK": obfuscate(plain_text), "VOBS": vobs(plain_text, 0x9C),
                             "plain": plain_text.encode()}.items():
        path = tmp_path / f"{form.strip('!')}{suffix}"
        path.write_bytes(with_saved_game(older, saved_game))
        games[form] = read_vsav(path)
    boards = {form: [(b.name, b.reversed) for b in g.boards] for form, g in games.items()}
    assert boards["VOBS"] == boards["!VCSK"] == boards["plain"] == [("01", False), ("22", True)]


def test_a_vobs_header_without_data_is_one_clear_line() -> None:
    with pytest.raises(BadSavedGameError, match=r"g\.vsav.*begin_save"):
        read_vsav_bytes(with_saved_game(make_vsav([]), b"VOBS\x07"), "g.vsav")
