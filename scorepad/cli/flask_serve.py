"""``flask --app scorepad serve``: the app for a table's phones, with granian (a production
HTTP server written in Rust, with a WSGI interface), and the address the phones open, printed
and shown as a QR code.

One process serves (granian's one worker, beside the small process that watches it), with
``--threads`` Python threads running requests: the caches and SQLite's queue of writers are
per process. An open event stream holds a thread besides those, idle on a condition
(:mod:`.serve_threads`). granian reads and answers HTTP/1.1 itself, outside Python: a connection that
has not sent its request's headers within ``--header-timeout`` (or an idle keep-alive one)
is closed, and up to ``--connections`` are held at once without a thread each, so
connections held open half-way (slowloris) neither take the threads nor fill the server
for long; a request with both ``Content-Length`` and ``Transfer-Encoding`` is read by
``Transfer-Encoding`` alone and its connection closed after the answer (RFC 9112 section
6.1), so no byte after it is read as another request. ``X-Forwarded-*`` reach the app
untouched: ``PROXIES`` says how many of them to trust (``ProxyFix``).

The address is ``PUBLIC_URL`` when set; else the one ``--advertise`` gives; else the one
this machine has on its local network, found without sending anything (:func:`lan_address`). Pages opened from this
machine's loopback address (``http://127.0.0.1:8000/``) then give that address in every
link and QR code (:func:`scorepad.links.advertise`), so a game made on the serving
machine is shared with links the other phones can open.
"""

from __future__ import annotations

import errno
import gc
import ipaddress
import os
import socket
import sys
from functools import partial

import click
import segno
from flask import Flask
from flask.cli import ScriptInfo, pass_script_info
from granian.constants import HTTPModes, Interfaces
from granian.http import HTTP1Settings
from granian.server import Server

from .. import links
from ..rules.limits import MAX_EVENT_LISTENERS
from .serve_threads import RequestSlots

# Any private address: connecting a UDP socket to it sends nothing, but picks the interface
# (and so the address) this machine would use to reach its local network.
PROBE = ("10.255.255.255", 9)

# The server's settings (README, "The server's settings": each with its reason).
THREADS = 4  # requests run at once: bench/load.py's fastest (8 is no faster and records more slowly)
CONNECTIONS = 1024  # connections held at once (granian's backpressure): each costs a few KB, no thread
BACKLOG = 1024  # connections the kernel queues before the server takes them (granian's least is 128)
HEADER_TIMEOUT = 10  # seconds a connection may take to send its request's headers, or stay idle between requests
# Seconds a server asked to stop waits for the answers in flight: granian waits for every open
# connection, and an event stream stays open for minutes (then the worker is killed; its
# listeners reconnect, to another server or this one started again).
STOP_TIMEOUT = 10


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


def port_in_use(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (another server holds it, or the address is not
    this machine's), or None when it can. granian listens with SO_REUSEPORT, so a second
    ``serve`` on a port already served would start and quietly share its connections with
    the first (an old version left running, its own caches and limits): a plain bind, as
    any other server makes, is refused while anything listens there."""
    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                           flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            if os.name != "nt":  # a port left in TIME_WAIT by a server just stopped is free (not so on Windows)
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            return f"port {port} on {host} is in use (another scorepad serve, or another server, listens there)"
        return f"cannot listen on {host} port {port}: {err.strerror or err}"
    return None


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
@click.option("--threads", default=THREADS, show_default=True, type=click.IntRange(1, 64),
              help="Requests served at once (4 is fastest; see README, 'Many phones at once').")
@click.option("--connections", default=CONNECTIONS, show_default=True, type=click.IntRange(16, 65536),
              help="Connections held open at once, idle or waiting for a thread; more wait in the backlog.")
@click.option("--backlog", default=BACKLOG, show_default=True, type=click.IntRange(128, 65535),
              help="Connections the system queues before the server takes them.")
@click.option("--header-timeout", default=HEADER_TIMEOUT, show_default=True, type=click.IntRange(1, 60),
              metavar="SECONDS", help="Close a connection that takes longer to send a request's headers, "
              "or stays idle this long between requests.")
@click.option("--advertise", metavar="ADDR",
              help="The address the phones open (a LAN address or a name), instead of the one found.")
@pass_script_info
def serve_command(info: ScriptInfo, host: str, port: int, threads: int, connections: int, backlog: int,
                  header_timeout: int, advertise: str | None) -> None:
    """Serve scorepad to the table's phones with granian, and print the address they open."""
    busy = port_in_use(host, port)
    if busy is not None:
        raise click.ClickException(busy)
    app = info.load_app()
    with app.app_context():
        public = links.public_base()
    address = _advertised(host, advertise)
    advertised: str | None = None
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
        advertised = url_of(address, port)
        click.echo(f"Phones: open {advertised}")
        _print_qr(advertised)
    sys.stdout.flush()
    app.extensions["scorepad.database"].close()  # this process only watches; the worker opens its own
    # an open event stream holds a thread of its own (serve_threads.py): --threads for the requests, and one a stream
    server = Server(info.app_import_path or "scorepad", address=host, port=port, interface=Interfaces.WSGI,
                    workers=1, blocking_threads=threads + MAX_EVENT_LISTENERS, backpressure=connections,
                    backlog=backlog, workers_kill_timeout=STOP_TIMEOUT,
                    http=HTTPModes.http1, websockets=False,
                    http1_settings=HTTP1Settings(header_read_timeout=header_timeout * 1000))
    server.serve(target_loader=partial(served_app, info.app_import_path, advertised, threads), wrap_loader=False)


def served_app(import_path: str | None, advertised: str | None, threads: int = THREADS) -> Flask:
    """The app as granian's worker process serves it: loaded as ``flask --app`` names it
    (``import_path``; None finds it as flask does), its loopback pages giving ``advertised``
    as the base of their links (:func:`scorepad.links.advertise`), ``threads`` requests run at
    once besides the event streams (:class:`~.serve_threads.RequestSlots`). A function of the module,
    with its arguments, so that a worker started afresh (``spawn``: macOS, Windows) can be
    handed it."""
    app = ScriptInfo(app_import_path=import_path).load_app()
    if advertised is not None:
        links.advertise(app, advertised)
    app.wsgi_app = RequestSlots(app.wsgi_app, threads)  # type: ignore[method-assign]
    compile_templates(app)
    settle()
    return app


def compile_templates(app: Flask) -> None:
    """Every template compiled as the worker starts (some 0.4 s of CPU, once), not by the first
    request for each page: the first phone to open a page of a long game waited a tenth of a
    second or more for its templates. Jinja keeps them compiled (its cache holds 400)."""
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)



def settle() -> None:
    """What the worker holds once started (modules, the app, its compiled templates: some
    125,000 objects, kept as long as it runs) put out of the garbage collector's reach
    (``gc.freeze``), as the worker starts: every full collection walked them all, and the
    first read of the largest game, whose thousands of new objects set one off, paid some
    25 ms of its 80 for it (bench/large.py). Reference counting still frees them; only the
    collector's passes leave them out."""
    gc.collect()
    gc.freeze()
