"""The description generates a client an integrator can use: openapi-python-client builds one
from the served ``/api/v1/openapi.json`` without a warning (no "Unable to process schema", no
operation left out), every module of it imports, its functions are named by operationId in a
module per tag, its models are typed (a deal's sides are ``DealSide``, not ``Any``), and it
creates a game, records a deal and reads the scores on a live server.

PDFs are ``application/pdf``, which the generator does not know: the config maps it to
``application/octet-stream`` (a download), the pages' HTML errors to ``text/plain``.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import served, valid_deal

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
CONFIG = "content_type_overrides:\n  application/pdf: application/octet-stream\n  text/html: text/plain\n"
PACKAGE = "scorepad_client"


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Iterator[str]:
    database = tmp_path_factory.mktemp("client") / "client.sqlite"
    shutil.copyfile(migrated_database, database)
    with served(database, "generated-client", threads=2) as base:
        yield base


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory, live_server: str) -> Iterator[tuple[Any, str]]:
    """The client generated from the live server's description, importable: (its package, the
    generator's output)."""
    folder = tmp_path_factory.mktemp("generated")
    with urllib.request.urlopen(f"{live_server}/api/v1/openapi.json") as response:
        (folder / "openapi.json").write_bytes(response.read())
    (folder / "config.yaml").write_text(CONFIG)
    ran = subprocess.run([str(GENERATOR), "generate", "--path", "openapi.json", "--meta", "none",
                          "--config", "config.yaml", "--output-path", PACKAGE],
                         cwd=folder, capture_output=True, text=True, timeout=300,
                         env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"})
    output = ran.stdout + ran.stderr
    assert ran.returncode == 0, output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE), output
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def test_the_generator_warns_of_nothing(generated):
    _, output = generated
    for trouble in ("WARNING", "Unable to", "Cannot parse", "will be omitted", "Error"):
        assert trouble not in output, output


def test_every_module_imports_and_each_tag_is_a_module_of_operation_named_functions(generated):
    package, _ = generated
    modules = [m.name for m in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.")]
    for name in modules:
        importlib.import_module(name)
    assert {f"{PACKAGE}.api.games.create_game", f"{PACKAGE}.api.deals.record_deal",
            f"{PACKAGE}.api.referee.rescore_game", f"{PACKAGE}.api.paper.get_game_results_pdf",
            f"{PACKAGE}.api.open_deals.save_part", f"{PACKAGE}.api.club_nights.create_event",
            f"{PACKAGE}.api.club_nights.start_event_round", f"{PACKAGE}.api.club_nights.import_event",
            f"{PACKAGE}.api.club_nights.export_event", f"{PACKAGE}.api.club_nights.get_club_ladder"} <= set(modules)
    models = importlib.import_module(f"{PACKAGE}.models")
    assert {"Meld", "MeldCounts", "DealSide", "Player", "MeldQuestion", "RescoreRequest"} - set(dir(models)) \
        == {"Meld"}  # a Meld is a card string or a MeldCounts: a union, no class of its own
    assert "list[DealSide]" in Path(models.__file__).with_name("deal.py").read_text()


def test_the_client_creates_a_game_records_a_deal_and_reads_the_scores(generated, live_server):
    package, _ = generated
    models = importlib.import_module(f"{PACKAGE}.models")
    games = importlib.import_module(f"{PACKAGE}.api.games")
    deals = importlib.import_module(f"{PACKAGE}.api.deals")
    client = package.Client(base_url=live_server, raise_on_unexpected_status=True)
    sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
    created = games.create_game.sync(client=client, body=models.NewGame.from_dict(
        {"name": "Friday", "sheet": "common", "sides": sides}))
    assert isinstance(created, models.Created) and created.revision == 0
    editing = package.AuthenticatedClient(base_url=live_server, token=created.edit_key,
                                          raise_on_unexpected_status=True)
    saved = deals.record_deal.sync(game_id=created.id, client=editing, body=models.NewDeal.from_dict(valid_deal(1)))
    assert isinstance(saved, models.SavedDeal) and saved.number == 1 and saved.revision == 1
    assert [side.name for side in saved.deal.sides] == ["Ann", "Bea"]
    game = games.get_game.sync(game_id=created.id, client=client)
    assert isinstance(game, models.Game)
    totals = {standing.name: standing.total for standing in game.standings}
    assert totals == {side["name"]: side["total"] for side in json.loads(json.dumps(
        saved.report.to_dict()))["sides"]}
    assert totals["Ann"] > totals["Bea"]


def test_a_refused_deal_comes_back_as_a_problem(generated, live_server):
    package, _ = generated
    models = importlib.import_module(f"{PACKAGE}.models")
    games = importlib.import_module(f"{PACKAGE}.api.games")
    deals = importlib.import_module(f"{PACKAGE}.api.deals")
    client = package.Client(base_url=live_server)
    created = games.create_game.sync(client=client, body=models.NewGame.from_dict(
        {"name": "Saturday", "sheet": "common", "sides": [{"name": "Ann", "players": ["Ann"]},
                                                          {"name": "Bea", "players": ["Bea"]}]}))
    broken = valid_deal(1)
    broken["sides"][1]["melds"] = ["A A 2 2"]
    editing = package.AuthenticatedClient(base_url=live_server, token=created.edit_key)
    refused = deals.record_deal.sync_detailed(game_id=created.id, client=editing, body=models.NewDeal.from_dict(broken))
    assert refused.status_code == 422 and isinstance(refused.parsed, models.Problem)
    assert refused.parsed.report.ok is False
