"""``gridsolve studio``: it listens on 127.0.0.1, prints its address with the run's token, and
refuses what it cannot serve with a clear message."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def studio(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "gridsolve", "studio", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_studio_prints_its_address_with_a_token_and_serves_the_folder():
    process = studio(str(ROOT / "boards" / "mummymaze2p-2007.yaml"), "--no-browser")
    try:
        assert process.stdout.readline().startswith("gridsolve studio: serving ")
        line = process.stdout.readline().strip()
        assert line.startswith("open http://127.0.0.1:")
        url = line.split(" ", 1)[1]
        assert "?token=" in url and url.endswith("&board=mummymaze2p-2007.yaml")
        base = url.split("?")[0]
        token = url.split("token=")[1].split("&")[0]
        assert len(token) >= 32
        request = urllib.request.Request(base + "api/boards?token=" + token)
        for _ in range(50):
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    boards = json.load(response)
                break
            except (ConnectionError, urllib.error.URLError) as exc:
                if isinstance(exc, urllib.error.HTTPError):
                    raise
                import time
                time.sleep(0.2)
        assert "mummymaze2p-2007.yaml" in boards["boards"]
        assert boards["first"] == "mummymaze2p-2007.yaml"
        try:
            urllib.request.urlopen(base + "api/boards", timeout=5)
            raise AssertionError("a request without the token was answered")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
            assert "token" in json.load(exc)["error"]
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.slow
def test_studio_refuses_what_it_cannot_serve(tmp_path):
    process = studio(str(tmp_path / "missing"), "--no-browser")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err.startswith("Error: ") and "no such file or folder" in err and "Traceback" not in err
    (tmp_path / "notes.txt").write_text("hello")
    process = studio(str(tmp_path / "notes.txt"), "--no-browser")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "not a .yaml or .yml board file" in err


@pytest.mark.slow
def test_an_installed_wheel_ships_the_page(tmp_path):
    import zipfile
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path),
                            str(ROOT)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    (wheel,) = tmp_path.glob("gridsolve-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for asset in ("studio.html", "studio.js", "studio.css"):
        assert f"gridsolve/studio/assets/{asset}" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    check = ("from gridsolve.studio.server import asset; import gridsolve; "
             "print(gridsolve.__file__); print('data-testid=\"verdict\"' in asset('studio.html'))")
    result = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(site)})
    assert result.returncode == 0, result.stderr
    where, found = result.stdout.split()
    assert where.startswith(str(site)) and found == "True"
