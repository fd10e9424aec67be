"""Fuzzing the readers: any bytes give a result or a BadInput naming the file, never another error."""

from __future__ import annotations

import gzip
import io
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.vasl.board import decode_losdata, parse_board_metadata
from asl_vassal_bridge.vasl.module import read_module_bytes
from asl_vassal_bridge.vasl.safe import Archive
from asl_vassal_bridge.vasl.traits import decode_sequence, decode_traits, encode_sequence
from asl_vassal_bridge.vasl.vsav import deobfuscate, read_vsav_bytes

from .builders import java_block_stream

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(st.text(alphabet="ab;\\'\t/x", max_size=8), min_size=1, max_size=6), st.sampled_from([";", "\t", "/"]))
def test_sequence_encoding_round_trips(tokens: list[str], delim: str) -> None:
    assert decode_sequence(encode_sequence(tokens, delim), delim) == tokens


@FUZZ
@given(st.text(max_size=300), st.text(max_size=300))
def test_trait_decoding_never_crashes(type_text: str, state_text: str) -> None:
    try:
        traits = decode_traits(type_text, state_text)
    except BadInput:
        return
    for t in traits:
        _ = (t.id, t.fields, t.state_fields)


@FUZZ
@given(st.binary(max_size=2000))
def test_losdata_random_bytes(data: bytes) -> None:
    try:
        decode_losdata(data, "LOSData")
    except BadInput as e:
        assert "LOSData" in str(e)


@FUZZ
@given(st.binary(max_size=400))
def test_losdata_random_payload_inside_valid_gzip_and_framing(payload: bytes) -> None:
    try:
        decode_losdata(gzip.compress(java_block_stream(payload)), "LOSData")
    except BadInput as e:
        assert "LOSData" in str(e)


@FUZZ
@given(st.binary(max_size=600) | st.text(max_size=300).map(lambda s: f"<boardMetadata {s}".encode()))
def test_board_metadata_random_bytes(data: bytes) -> None:
    try:
        parse_board_metadata(data, "bdF!BoardMetadata.xml")
    except BadInput as e:
        assert "bdF" in str(e)


@FUZZ
@given(st.binary(max_size=600) | st.text(max_size=300).map(lambda s: f"<excerpt>{s}".encode()))
def test_module_random_bytes(data: bytes) -> None:
    try:
        read_module_bytes(data, "fuzz.xml")
    except BadInput as e:
        assert "fuzz.xml" in str(e)


@FUZZ
@given(st.binary(max_size=600))
def test_zip_random_bytes(data: bytes) -> None:
    try:
        arc = Archive(data, "fuzz.zip")
        for n in arc.names():
            arc.read(n)
    except BadInput as e:
        assert "fuzz.zip" in str(e)


@FUZZ
@given(st.binary(max_size=400) | st.text(max_size=200).map(lambda s: ("!VCSK00" + s).encode()))
def test_saved_game_random_text(data: bytes) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", data)
    try:
        read_vsav_bytes(buf.getvalue(), "fuzz.vsav")
    except BadInput as e:
        assert "fuzz.vsav" in str(e)


@FUZZ
@given(st.lists(st.text(alphabet="+/D-bd\t;\\x0123MapnullpiecemarkLocation", max_size=40), max_size=8))
def test_saved_game_random_commands(cmds: list[str]) -> None:
    text = encode_sequence(["begin_save", *cmds, "end_save"], "\x1b")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", text)
    try:
        read_vsav_bytes(buf.getvalue(), "fuzz.vsav")
    except BadInput as e:
        assert "fuzz.vsav" in str(e)
    assert deobfuscate(text.encode(), "fuzz.vsav") == text
