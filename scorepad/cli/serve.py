"""``flask --app scorepad serve``: the app for a table's phones, with waitress (a production
WSGI server), and the address the phones open, printed and shown as a QR code.

The address is ``PUBLIC_URL`` when set; else the one ``--advertise`` gives; else the one
this machine has on its local network, found without sending anything (:func:`lan_address`). Pages opened from this
machine's loopback address (``http://127.0.0.1:8000/``) then give that address in every
link and QR code (:func:`scorepad.links.advertise`), so a game made on the serving
machine is shared with links the other phones can open.
"""

from __future__ import annotations

import ipaddress
import socket
import sys

import click
import segno
import waitress  # type: ignore[import-untyped]  # waitress ships no type hints
from flask.cli import ScriptInfo, pass_script_info

from .. import links

# Any private address: connecting a UDP socket to it sends nothing, but picks the interface
# (and so the address) this machine would use to reach its local network.
PROBE = ("10.255.255.255", 9)


def lan_address(probe: tuple[str, int] = PROBE) -> str | None:
    """This machine's address on its local network (``192.168.1.20``), or None when it has
    none (no network, or only loopback). Nothing is sent: a UDP socket is connected, which
    only chooses a route, and asked for its own address."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
            probe_socket.connect(probe)
            found = probe_socket.getsockname()[0]
    except OSError:
        return None
    address = ipaddress.ip_address(found)
    return None if address.is_loopback or address.is_unspecified or address.is_link_local else found


def _advertised(host: str, advertise: str | None) -> str | None:
    """The address to give the phones: ``--advertise``; else ``--host`` when it names one
    address that is not loopback; else the LAN address when serving on every address; else None."""
    if advertise:
        return advertise
    try:
        bound = ipaddress.ip_address(host)
    except ValueError:
        return None if links.is_loopback(host) else host  # a host name given to --host
    if bound.is_loopback:
        return None
    return lan_address() if bound.is_unspecified else host


def url_of(address: str, port: int) -> str:
    """``http://ADDRESS:PORT/``, an IPv6 address in brackets."""
    shown = f"[{address}]" if ":" in address and not address.startswith("[") else address
    return f"http://{shown}:{port}/"


def _print_qr(url: str) -> None:
    """The URL as a QR code drawn with block characters, for a phone's camera; nothing when
    the terminal cannot show them."""
    try:
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
    except UnicodeEncodeError:
        click.echo("(This terminal cannot draw the QR code.)")


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The address to listen on: 0.0.0.0 for every network, 127.0.0.1 for this machine only.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64),
              help="Requests served at once (4 is fastest; see README, 'Many phones at once').")
@click.option("--advertise", metavar="ADDR",
              help="The address the phones open (a LAN address or a name), instead of the one found.")
@pass_script_info
def serve_command(info: ScriptInfo, host: str, port: int, threads: int, advertise: str | None) -> None:
    """Serve scorepad to the table's phones with waitress, and print the address they open."""
    app = info.load_app()
    with app.app_context():
        public = links.public_base()
    address = _advertised(host, advertise)
    if public is not None:  # every link starts with it, whatever the request's host
        click.echo(f"Phones: open {public}")
        _print_qr(public)
    elif address is None:
        why = (f"it listens on this machine only (--host {host}); serve with --host 0.0.0.0 for the table's phones"
               if links.is_loopback(host) else
               "this machine has no local network address; join the network, or give --advertise ADDR")
        click.echo(f"No address for phones: {why}.")
        click.echo(f"This machine: open {url_of(host if links.is_loopback(host) else '127.0.0.1', port)}")
    else:
        url = url_of(address, port)
        links.advertise(app, url)
        click.echo(f"Phones: open {url}")
        _print_qr(url)
    sys.stdout.flush()
    waitress.serve(app, host=host, port=port, threads=threads, ident="scorepad")
