"""An installed scorepad is whole: the wheel carries the templates, the static files and the
migrations, and the instance folder is where the operator says or the working directory,
never beside the code (site-packages once installed).

The wheel is built with the test environment's own setuptools (``--no-build-isolation``), so
the test needs no network; ``.ci/run`` goes further and serves a page from an installed wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the build reads: a copy of these is built, so no stale build/ folder of the checkout
# can put a file in the wheel that the sources no longer have.
SOURCES = ("pyproject.toml", "README.md", "scorepad", "templates", "static")


def _build_wheel(tmp_path: Path) -> list[str]:
    """Build the wheel from a clean copy of the sources; the names of the files it holds."""
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(out), str(source)], check=True, cwd=tmp_path)
    (wheel,) = out.glob("scorepad-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def _files(folder: str, pattern: str) -> set[str]:
    return {path.relative_to(ROOT).as_posix() for path in (ROOT / folder).glob(pattern) if path.is_file()}


def test_wheel_ships_templates_static_and_migrations_inside_the_package_and_no_instance(tmp_path):
    names = set(_build_wheel(tmp_path))

    pages = _files("templates", "*.html")
    referee = _files("templates", "referee/*.html")
    static = _files("static", "**/*")
    assert pages and referee and static  # the checkout's own layout, read to compare with
    for relative in sorted(_files("templates", "**/*") | static):
        assert f"scorepad/{relative}" in names, f"{relative} is not in the wheel"
    migrations = {f"scorepad/{p.relative_to(ROOT / 'scorepad').as_posix()}"
                  for p in (ROOT / "scorepad" / "storage" / "migrations").glob("*.sql")}
    assert migrations and migrations <= names
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "scorepad").rglob("*.py")}
    assert modules <= names, f"modules missing from the wheel: {sorted(modules - names)}"

    assert not [name for name in names if "instance" in name.split("/")[:-1]
                or name.endswith(("secret_key", ".sqlite"))]
    assert not [name for name in names if name.startswith(("templates/", "static/"))]


def _start_app(cwd: Path, **env: str) -> dict[str, object]:
    """create_app() in a fresh process started in ``cwd``; where its folders ended up."""
    environ = {key: value for key, value in os.environ.items()
               if key not in ("SCOREPAD_INSTANCE_PATH", "SCOREPAD_DATABASE", "SCOREPAD_SECRET_KEY")}
    environ.update(env, PYTHONPATH=str(ROOT))
    script = ("import json; from scorepad import create_app; app = create_app(); "
              "client = app.test_client(); "
              "print(json.dumps({'instance': app.instance_path, 'database': app.config['DATABASE'], "
              "'colour': app.config.get('TABLE_COLOUR'), 'home': client.get('/').status_code}))")
    done = subprocess.run([sys.executable, "-c", script], check=False, cwd=cwd, env=environ,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_instance_folder_is_scorepad_instance_path_when_set(tmp_path):
    folder = tmp_path / "elsewhere" / "scorepad-data"
    folder.mkdir(parents=True)
    (folder / "config.py").write_text("TABLE_COLOUR = 'green'\n")
    work = tmp_path / "work"
    work.mkdir()

    started = _start_app(work, SCOREPAD_INSTANCE_PATH=str(folder))

    assert started["instance"] == str(folder)
    assert started["colour"] == "green"  # its config.py is the one read
    assert started["database"] == str(folder / "scorepad.sqlite")
    assert (folder / "secret_key").is_file() and (folder / "scorepad.sqlite").is_file()
    assert started["home"] == 200
    assert not (work / "instance").exists()


def test_a_relative_scorepad_instance_path_is_taken_from_the_working_directory(tmp_path):
    started = _start_app(tmp_path, SCOREPAD_INSTANCE_PATH="data/scorepad")

    assert started["instance"] == str(tmp_path / "data" / "scorepad")
    assert (tmp_path / "data" / "scorepad" / "secret_key").is_file()


def test_instance_folder_without_the_setting_is_instance_in_the_working_directory(tmp_path):
    started = _start_app(tmp_path)

    assert started["instance"] == str(tmp_path / "instance")
    assert started["database"] == str(tmp_path / "instance" / "scorepad.sqlite")
    assert (tmp_path / "instance" / "secret_key").is_file()
    assert (tmp_path / "instance" / "scorepad.sqlite").is_file()
    assert started["home"] == 200
