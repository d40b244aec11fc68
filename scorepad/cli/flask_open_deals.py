"""``flask --app scorepad deal part|open|confirm|abandon``: a deal entered part by part (an open
deal, :mod:`scorepad.storage.open_deals`), on the server, as the API's
``PUT .../deals/<n>/parts/<side>`` and ``.../ending``, ``POST .../confirmation``, ``GET`` and
``DELETE .../open`` do. Added to ``flask deal`` by the app (:mod:`scorepad.app`).

``deal part ID --side N FILE|-`` saves side N's part of the game's next deal (the deal's side
object, its name may be left out); ``deal part ID --ending FILE|-`` the ending (``ending``,
``went_out``, ..., ``as_played``, ``repeat``). ``--phone LABEL`` says whose phone enters it
(default: "the server"); ``--replaces VERSION`` replaces a part another phone entered. The
part that completes a clean deal writes it. Exit status as ``deal record``: 4 when another
phone entered the part (``--replaces`` replaces it) or the deal is being entered part by part;
2 when the input cannot be used.
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from ..storage import open_deals
from ..storage.errors import SameAsPrevious
from ..storage.open_deals import OpenDeal
from ..storage.parts import ENDING
from ..storage.reading import DealRecord
from .flask_commands import CommandError, echo_saved, game_of, read_json, store_call
from .output import problem_words

SERVER_PHONE = "the server"  # the label of the parts entered by these commands, unless --phone says


def _echo_open(opened: OpenDeal) -> None:
    """The open deal: each part, who entered it, what is missing or waiting, and its problems."""
    click.echo(f"Deal {opened.number} is open (confirm: {opened.confirm.value}; changes: {opened.counter}).")
    for part in opened.parts:
        what = "ending" if part.position is None else f"side {part.position} ({opened.side_names[part.position - 1]})"
        confirmed = f", confirmed by {part.confirmed_by}" if part.confirmed_by else ""
        click.echo(f"  {what}: version {part.version}, entered by {part.phone} at {part.entered_at}{confirmed}")
    if opened.missing:
        click.echo("  missing: " + ", ".join(_named(opened, p) for p in opened.missing))
    if opened.unconfirmed:
        click.echo("  waiting for confirmation: " + ", ".join(_named(opened, p) for p in opened.unconfirmed))
    refused = opened.refused
    if refused is not None:
        found = [refused.problem] if isinstance(refused, SameAsPrevious) else refused.problems
        click.echo(f"Not written: every part is in, and the deal has {len(found)} problem"
                   f"{'s' if len(found) != 1 else ''}:")
        for problem in found:
            click.echo(f"  - {problem.side + ': ' if problem.side else ''}{problem_words(problem)}")


def _named(opened: OpenDeal, part: str) -> str:
    return "the ending" if part == ENDING else f"side {part} ({opened.side_names[int(part) - 1]})"


def _done(game_id: str, found: OpenDeal | DealRecord) -> None:
    if isinstance(found, DealRecord):
        echo_saved(game_id, found, "recorded from its parts")
    else:
        _echo_open(found)


@click.command("part")
@click.argument("game_id", metavar="ID")
@click.argument("source", metavar="FILE|-")
@click.option("--side", type=click.IntRange(1), help="The side's position (1 for the first) whose part this is.")
@click.option("--ending", is_flag=True, help="The part is the ending (who went out, or the stock ran out).")
@click.option("--phone", default=SERVER_PHONE, show_default=True, help="Whose phone enters the part: a label.")
@click.option("--replaces", type=click.IntRange(1), metavar="VERSION",
              help="Replace the part another phone entered, at this version.")
@with_appcontext
def deal_part(game_id: str, source: str, side: int | None, ending: bool, phone: str, replaces: int | None) -> None:
    """Save one part of the game's next deal; the part that completes a clean deal writes it."""
    if (side is None) == (not ending):
        raise CommandError("side", "give --side N or --ending (one of them)")
    game = game_of(game_id)
    data = read_json(source, "ending" if ending else "side")
    label = store_call(open_deals.read_phone_label, phone)
    number = store_call(open_deals.read_open, game_id).number
    if ending:
        read = store_call(open_deals.read_ending, game, data)
        found = store_call(open_deals.save_ending, game_id, number, read, label, replaces)
    else:
        assert side is not None
        read_side = store_call(open_deals.read_side, game, side, data)
        found = store_call(open_deals.save_side, game_id, number, side, read_side, label, replaces)
    _done(game_id, found)


@click.command("open")
@click.argument("game_id", metavar="ID")
@with_appcontext
def deal_open(game_id: str) -> None:
    """Show the game's open deal: each part, who entered it, what is missing."""
    game_of(game_id)
    _echo_open(store_call(open_deals.read_open, game_id))


@click.command("confirm")
@click.argument("game_id", metavar="ID")
@click.option("--side", required=True, type=click.IntRange(1), help="The side whose part is confirmed.")
@click.option("--by-side", "by_side", required=True, type=click.IntRange(1), help="The confirming phone's side.")
@click.option("--phone", required=True, help="The confirming phone's label.")
@with_appcontext
def deal_confirm(game_id: str, side: int, by_side: int, phone: str) -> None:
    """Confirm a side's part of the open deal (a game whose opponents confirm), at its version now."""
    game_of(game_id)
    opened = store_call(open_deals.read_open, game_id)
    part = opened.part(str(side))
    if part is None:
        raise CommandError("side", f"side {side} has no part entered to confirm")
    label = store_call(open_deals.read_phone_label, phone)
    _done(game_id, store_call(open_deals.confirm_part, game_id, opened.number, side, label, by_side, part.version))


@click.command("abandon")
@click.argument("game_id", metavar="ID")
@with_appcontext
def deal_abandon(game_id: str) -> None:
    """Abandon the game's open deal: its parts go, nothing is written."""
    game_of(game_id)
    removed = store_call(open_deals.abandon, game_id)
    click.echo(f"Open deal abandoned ({removed} part{'s' if removed != 1 else ''} removed).")


COMMANDS = (deal_part, deal_open, deal_confirm, deal_abandon)
