"""The edges: Ctrl-C stops a long call within a second, and to_parquet leaves nothing at its path
when it raises."""

import _thread
import threading
import time

import pytest

import kifu

GAME = b'[Event "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n'


class Endless:
    """A binary file object that never ends: games for ever."""

    def __init__(self):
        self.block = GAME * 2000

    def read(self, n=-1):
        return self.block if n is None or n < 0 else self.block[:n]


class FailsAfter:
    """A binary file object that gives a few games, then raises."""

    def __init__(self, games=50):
        self.left = GAME * games

    def read(self, n=-1):
        if not self.left:
            raise OSError("the source broke")
        n = len(self.left) if n is None or n < 0 else n
        chunk, self.left = self.left[:n], self.left[n:]
        return chunk


def interrupted_after(seconds, call):
    """Runs `call` with a Ctrl-C (SIGINT, as `interrupt_main` raises it) after `seconds`; the
    time from the interrupt to the KeyboardInterrupt."""
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    return time.monotonic() - start - seconds


@pytest.mark.parametrize(
    "call",
    [
        lambda: kifu.stats(Endless(), format="pgn"),
        lambda: kifu.check(Endless(), format="pgn"),
        lambda: kifu.stats(Endless(), format="pgn", threads=1),
    ],
    ids=["stats", "check", "stats-j1"],
)
def test_ctrl_c_stops_a_long_call_within_a_second(call):
    late = interrupted_after(0.3, call)
    assert late < 1.0, f"KeyboardInterrupt {late:.2f} s after Ctrl-C"


def test_ctrl_c_stops_to_parquet_and_leaves_nothing(tmp_path):
    out = tmp_path / "g.parquet"
    late = interrupted_after(0.3, lambda: kifu.to_parquet(Endless(), out, format="pgn"))
    assert late < 1.0, f"KeyboardInterrupt {late:.2f} s after Ctrl-C"
    assert list(tmp_path.iterdir()) == [], "no file, no temporary file"


def test_ctrl_c_stops_iteration(tmp_path):
    def read_all():
        for _ in kifu.read_pgn(Endless()):
            time.sleep(0)

    late = interrupted_after(0.3, read_all)
    assert late < 1.0


def test_to_parquet_from_a_source_that_raises_leaves_nothing(tmp_path):
    out = tmp_path / "g.parquet"
    with pytest.raises(OSError, match="the source broke"):
        kifu.to_parquet(FailsAfter(), out, format="pgn")
    assert list(tmp_path.iterdir()) == [], "no file, no temporary file"
    # and an existing file is left as it was
    out.write_bytes(b"old")
    with pytest.raises(OSError, match="the source broke"):
        kifu.to_parquet(FailsAfter(), out, format="pgn", force=True)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.parquet"]


def test_to_parquet_refuses_an_input_and_a_path_inside_an_input_directory(tmp_path):
    src = tmp_path / "games.pgn"
    src.write_bytes(GAME)
    with pytest.raises(Exception, match="input"):
        kifu.to_parquet(src, src, force=True)
    with pytest.raises(Exception, match="input"):
        kifu.to_parquet(tmp_path, tmp_path / "new.parquet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]


def test_to_parquet_dataset_force_keeps_the_old_dataset_until_the_new_one_is_whole(tmp_path):
    src = tmp_path / "in" / "games.pgn"
    src.parent.mkdir()
    src.write_bytes(GAME * 10)
    out = tmp_path / "ds"
    kifu.to_parquet(src, out, dataset=True)
    first = sorted(p.name for p in out.iterdir())
    assert first == ["_SUCCESS", "part-00000.parquet"]
    with pytest.raises(OSError, match="the source broke"):
        kifu.to_parquet(FailsAfter(), out, dataset=True, force=True, format="pgn")
    assert sorted(p.name for p in out.iterdir()) == first, "the old dataset is whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "in"]


def test_kifu_errors_have_one_base():
    assert issubclass(kifu.InputError, kifu.Error)
    assert issubclass(kifu.InputError, OSError)
    with pytest.raises(kifu.Error) as e:
        kifu.stats(b"\x28\xb5\x2f\xfd\x04\x00", name="cut.pgn.zst")
    assert isinstance(e.value, kifu.InputError)
    assert e.value.errors and e.value.errors[0][0] == "cut.pgn.zst"
