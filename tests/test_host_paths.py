"""Where the host tools put things: PNGs of `stonegrid sim` in a pictures folder, and the
virtual board's default flash folder one per checkout."""
from stonegrid.sim import png
from stonegrid.sim.render import pictures_dir, save_png
from stonegrid.sim.sync import default_flash_dir


class _Board:  # only what save_png reads
    width = height = 16
    frame = bytes([255, 0, 0]) + bytes(16 * 16 * 3 - 3)


def test_p_saves_the_png_in_the_pictures_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_PICTURES_DIR", str(tmp_path / "pics"))
    monkeypatch.chdir(tmp_path)
    path = save_png(_Board())
    saved = list((tmp_path / "pics" / "stonegrid").iterdir())
    assert [str(p) for p in saved] == [path]
    assert png.decode(saved[0].read_bytes())[:2] == (16 * 16 + 2, 16 * 16 + 2)
    assert str(tmp_path / "pics" / "stonegrid") == pictures_dir()
    assert not list(tmp_path.glob("*.png"))  # nothing in the current folder


def test_each_checkout_has_its_own_default_flash(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    one, two = default_flash_dir("/src/stonegrid"), default_flash_dir("/tmp/stonegrid")
    assert one != two and one.startswith(str(tmp_path / "stonegrid" / "flash"))
    assert "stonegrid-" in one and default_flash_dir("/src/stonegrid") == one
