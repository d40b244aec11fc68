"""docs/api.md tells the truth: every request example in it, replayed against a live server,
gets the answer the doc shows.

The server is the app under the production server (flask serve) on a free loopback port, on a fresh SQLite file in the
test's folder. The doc's examples follow one game from creation, so they are replayed as one
story, with the doc's shell variables (``$HOST``, ``$GAME``, ``$KEY``, set in its first
``sh`` block) standing for this server and the game its ``POST /api/v1/games`` example made.

**What an example is.** A ```` ```sh ```` block holding one ``curl`` command, then a
paragraph that starts with the answer's status in backticks (`` `201 Created` ``), optionally
followed by headers in backticks (`` `Location: /api/v1/games/…` ``), each compared exactly.
When that paragraph ends with ``:``, the next fenced block is the body: ``json`` (compared as
below) or ``csv`` (compared as text, without the byte-order mark and with ``\\n`` line ends);
when it ends otherwise, there is no body to compare (a PDF: its ``Content-Type`` is named
instead). Every ``sh`` block that starts with ``curl`` is an example, and an example that
cannot be read fails the test: none is skipped. The doc has no examples in other languages;
a ``json`` block that follows no ``curl`` command (a request body alone, the generic error
shape, the answers of ``/referee/rescore`` about a game the doc does not build) shows a shape,
not an exchange, and is not replayed.

**The command** is split with :mod:`shlex` (``\\`` line continuations joined, ``#`` comments
dropped) after ``$HOST``, ``$GAME`` and ``$KEY`` are replaced. Read: the URL, ``-X`` /
``--request``, ``-H`` / ``--header``, ``-d`` / ``--data`` / ``--data-binary`` (a ``@file``
is a file an earlier example saved, whose line breaks ``-d`` drops, as curl does; without a
``Content-Type`` header, curl's ``application/x-www-form-urlencoded`` is sent) and
``-O`` / ``-J`` (save the body under the name its ``Content-Disposition`` gives); ``-s`` and
``-i`` only change what curl prints. Any other option fails the test. Like curl, the request
sends ``Accept: */*``, and a body makes it a ``POST`` unless ``-X`` says otherwise.

**Order.** The doc runs top to bottom on a fresh server: examples are replayed in document
order, as a reader would send them. An example about the game has ``<!-- at revision N -->``
(an HTML comment, so invisible when the doc is read) before its ``sh`` block: the game's
revision when it is sent, which the test checks (``GET .../revision``) before sending it; so
the doc tells the game's story in order (an example needing no game may sit anywhere).

**Values that vary.** The shell variables stand for the doc's values wherever they appear in a
command or in a header the answer shows (`` `ETag: "$GAME.1"` ``), and the doc's values of
``$HOST``, ``$GAME`` and ``$KEY``, and the ``id``
and ``edit_key`` of any answer that makes a game (an import too), are names: each is
replaced, wherever it appears in a later example (URLs, ETags, headers, bodies), by what this
server answered. Values under these keys are not compared at all (their keys still are):
``at``, ``created_at``, ``updated_at``, ``exported_at``, ``deleted_at`` (times), and ``id`` when the doc
shows a number (a history entry's, numbered across all of a server's games). Everything
else, revisions included, must match exactly.

**Elision** (``…``, outside strings) is read as follows; nothing else is elided:

- an item ``…`` of a list stands for any number (zero or more) of items, so ``[…]`` is any
  list, ``[a, …]`` a list that starts with ``a``, ``[…, z]`` one that ends with ``z``, and
  ``[a, …, m, n, …]`` one that starts with ``a`` and holds ``m, n`` side by side later;
  a list with no ``…`` has exactly the items shown;
- an entry ``…`` of an object (``{"a": 1, …}``) allows keys besides those shown; so ``{…}``
  is any object; an object with no ``…`` has exactly the keys shown;
- every key and item shown is compared at every level, by the same rules.

A whole answer is never elided: an example's body must show at least one key or item.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import shutil
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from scorepad.api.openapi_examples import EXAMPLES_FILE, examples
from tests.api.examples_harvest import harvest
from tests.helpers import served

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"
ELIDED = "…"
VARIABLE = {"at": "a time", "created_at": "a time", "updated_at": "a time", "exported_at": "a time",
            "deleted_at": "a time", "started_at": "a time", "closed_at": "a time"}
NUMBERED = "id"  # a number under "id" numbers a history entry across every game on the server
DOC_HOST = "HOST"


# -- reading the doc --------------------------------------------------------------------------------


@dataclass
class Example:
    """One request example of the doc and the answer it shows."""

    line: int
    command: str
    revision: int | None
    status: int
    phrase: str
    headers: list[tuple[str, str]]
    body_kind: str | None = None
    body: str | None = None

    def __str__(self) -> str:
        return f"docs/api.md line {self.line}: {' '.join(self.command.split())[:100]}"


FENCE = re.compile(r"^```(\w*)\s*$")
STATUS = re.compile(r"^`(\d{3}) ([^`]+)`((?:,\s*`[^`]+`)*)")
AT_REVISION = re.compile(r"<!--\s*at revision (\d+)\s*-->")


def blocks(text: str) -> list[tuple[str, Any, int]]:
    """The doc as ("fence", (lang, content), line) and ("text", line_text, line) items."""
    items: list[tuple[str, Any, int]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            items.append(("fence", (opened.group(1), "\n".join(lines[i + 1:end])), i + 1))
            i = end + 1
        else:
            items.append(("text", lines[i], i + 1))
            i += 1
    return items


def is_curl(lang: str, content: str) -> bool:
    return lang == "sh" and content.lstrip().startswith("curl")


def read_doc(text: str) -> tuple[dict[str, str], list[Example]]:
    """The doc's shell variables (name: the doc's value) and its request examples, in order."""
    items = blocks(text)
    variables: dict[str, str] = {}
    examples: list[Example] = []
    for n, (kind, value, _) in enumerate(items):
        if kind != "fence":
            continue
        lang, content = value
        if lang == "sh" and not variables and not is_curl(lang, content):
            for row in content.splitlines():
                if "=" in row:
                    name, rest = row.split("=", 1)
                    variables[name.strip()] = rest.split("#")[0].strip()
        if is_curl(lang, content):
            examples.append(read_example(items, n))
    return variables, examples


def read_example(items: list[tuple[str, Any, int]], n: int) -> Example:
    _, (_, command), line = items[n]
    revision = None
    for kind, text, _ in reversed(items[:n]):  # the text since the block before this one
        if kind == "fence":
            break
        found = AT_REVISION.search(text)
        if found:
            revision = int(found.group(1))
    paragraph: list[str] = []  # the status line's paragraph: the first after the command that starts with one
    rest = n + 1
    while rest < len(items) and items[rest][0] == "text" and not items[rest][1].startswith("#"):
        row = items[rest][1]
        if paragraph and not row.strip():
            break
        if paragraph or STATUS.match(row):
            paragraph.append(row)
        rest += 1
    assert paragraph, f"docs/api.md line {line}: the example's answer has no status line (`200 OK`)"
    status_text = " ".join(paragraph)
    matched = STATUS.match(status_text)
    assert matched
    headers = [(name.strip(), value.strip())
               for name, value in (header.split(":", 1) for header in re.findall(r"`([^`]+)`", matched.group(3)))]
    example = Example(line, command, revision, int(matched.group(1)), matched.group(2), headers)
    while rest < len(items) and items[rest][0] == "text" and not items[rest][1].strip():
        rest += 1
    if status_text.rstrip().endswith(":"):
        assert rest < len(items) and items[rest][0] == "fence", \
            f"docs/api.md line {line}: the status line ends with ':' but no block follows it"
        example.body_kind, example.body = items[rest][1]
        assert example.body_kind in ("json", "csv"), f"{example}: a body is json or csv, not {example.body_kind!r}"
    return example


# -- the doc's JSON, with its elisions ---------------------------------------------------------------


def elided_json(text: str) -> Any:
    """The doc's JSON: a ``…`` item of a list becomes the string ``"…"``, a ``…`` entry of an
    object the entry ``"…": "…"``; what :func:`mismatches` reads as "and more"."""
    out: list[str] = []
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            stack.append(ch)
        elif ch in "]}":
            stack.pop()
        elif ch == ELIDED:
            out.append(f'"{ELIDED}"' if stack and stack[-1] == "[" else f'"{ELIDED}": "{ELIDED}"')
            continue
        out.append(ch)
    return json.loads("".join(out), object_pairs_hook=_no_twice)


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the doc's JSON, which shows no key twice (where a ``…`` entry may)."""
    keys = [key for key, _ in pairs if key != ELIDED]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a key shown twice: {sorted(k for k in keys if keys.count(k) > 1)}")
    return dict(pairs)


def mismatches(want: Any, got: Any, path: str = "$") -> list[str]:
    """Where ``got`` (the answer) differs from ``want`` (the doc), elisions read as the module
    docstring says; empty when they agree."""
    if isinstance(want, dict):
        return _object(want, got, path)
    if isinstance(want, list):
        return _list(want, got, path)
    if type(want) is not type(got) or want != got:
        return [f"{path}: the doc shows {want!r}, the answer has {got!r}"]
    return []


def _object(want: dict[str, Any], got: Any, path: str) -> list[str]:
    if not isinstance(got, dict):
        return [f"{path}: the doc shows an object, the answer has {got!r:.80}"]
    shown = set(want) - {ELIDED}
    problems = []
    if shown - set(got):
        problems.append(f"{path}: keys the answer lacks: {sorted(shown - set(got))}")
    if ELIDED not in want and set(got) - shown:
        problems.append(f"{path}: keys the doc does not show: {sorted(set(got) - shown)}")
    for key in sorted(shown & set(got)):
        if key in VARIABLE or (key == NUMBERED and type(want[key]) is int and type(got[key]) is int):
            continue
        problems += mismatches(want[key], got[key], f"{path}.{key}")
    return problems


def _items(want: list[Any], got: list[Any], path: str, start: int) -> list[str]:
    return [problem for i, (w, g) in enumerate(zip(want, got, strict=True))
            for problem in mismatches(w, g, f"{path}[{start + i}]")]


def _list(want: list[Any], got: Any, path: str) -> list[str]:
    if not isinstance(got, list):
        return [f"{path}: the doc shows a list, the answer has {got!r:.80}"]
    if ELIDED not in want:
        if len(want) != len(got):
            return [f"{path}: the answer has {len(got)} items, the doc shows {len(want)}"]
        return _items(want, got, path, 0)
    runs: list[list[Any]] = [[]]
    for item in want:
        if item == ELIDED:
            runs.append([])
        else:
            runs[-1].append(item)
    head, *middle, tail = runs
    if len(head) + len(tail) > len(got):
        return [f"{path}: the answer has {len(got)} items, the doc shows at least {len(head) + len(tail)}"]
    end = len(got) - len(tail)
    problems = _items(head, got[:len(head)], path, 0) + _items(tail, got[end:], path, end)
    at = len(head)
    for run in middle:
        found = next((i for i in range(at, end - len(run) + 1)
                      if not _items(run, got[i:i + len(run)], path, i)), None)
        if found is None:
            problems.append(f"{path}: no {len(run)} items in a row after [{at - 1}] match the doc's {run!r:.120}")
        else:
            at = found + len(run)
    return problems


def shows_something(want: Any) -> bool:
    """A body shows at least one key or item: never wholly elided."""
    if isinstance(want, dict):
        return bool(set(want) - {ELIDED})
    if isinstance(want, list):
        return any(item != ELIDED for item in want)
    return True


# -- curl --------------------------------------------------------------------------------------------


@dataclass
class Request:
    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    data: bytes | None = None
    save: bool = False


def curl(command: str, files: dict[str, bytes]) -> Request:
    """The request a curl command line sends (the options the module docstring lists)."""
    words = shlex.split(command.replace("\\\n", " "), comments=True)
    assert words[0] == "curl"
    request = Request("", "")
    method = None
    words = words[1:]
    while words:
        word = words.pop(0)
        if word in ("-X", "--request"):
            method = words.pop(0)
        elif word in ("-H", "--header"):
            name, value = words.pop(0).split(":", 1)
            request.headers[name.strip()] = value.strip()
        elif word in ("-d", "--data", "--data-binary"):
            data = words.pop(0)
            if not data.startswith("@"):
                request.data = data.encode()
            elif word == "--data-binary":
                request.data = files[data[1:]]
            else:  # -d @file: curl drops the file's line breaks
                request.data = files[data[1:]].replace(b"\r", b"").replace(b"\n", b"")
        elif re.fullmatch(r"-[siOJ]+", word):
            request.save = request.save or "O" in word
        elif word.startswith("-"):
            raise AssertionError(f"curl option {word!r} is not one the replay reads")
        else:
            assert not request.url, f"two URLs: {request.url} and {word}"
            request.url = word
    request.method = method or ("POST" if request.data is not None else "GET")
    sent = {name.lower() for name in request.headers}
    if "accept" not in sent:
        request.headers["Accept"] = "*/*"
    if request.data is not None and "content-type" not in sent:
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
    return request


@dataclass
class Answer:
    status: int
    phrase: str
    headers: http.client.HTTPMessage
    body: bytes


def send(request: Request) -> Answer:
    url = urlsplit(request.url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    try:
        target = url.path + (f"?{url.query}" if url.query else "")
        connection.request(request.method, target, request.data, request.headers)
        response = connection.getresponse()
        return Answer(response.status, response.reason, response.headers, response.read())
    finally:
        connection.close()


def saved_name(answer: Answer) -> str:
    """The file name ``curl -OJ`` saves to: ``filename`` of ``Content-Disposition``."""
    found = re.search(r'filename="([^"]*)"', answer.headers.get("Content-Disposition", ""))
    assert found, "-J needs a Content-Disposition with a filename"
    return found.group(1)


# -- the replay --------------------------------------------------------------------------------------


class Story:
    """The doc's examples replayed on one server: the names learnt so far and the files saved."""

    def __init__(self, host: str, variables: dict[str, str]) -> None:
        self.variables = variables
        self.names = {variables[DOC_HOST]: host}  # the doc's value: this server's
        self.host = host
        self.files: dict[str, bytes] = {}
        self.exchanges: list[tuple[Request, Answer]] = []  # every request sent and its answer, in order

    def named(self, text: str) -> str:
        for doc_value, value in self.names.items():
            text = text.replace(doc_value, value)
        return text

    def shell(self, text: str) -> str:
        """``text`` with the doc's shell variables (``$GAME``) replaced by this server's values."""
        for name, doc_value in self.variables.items():
            text = text.replace(f"${name}", doc_value)
        return self.named(text)

    def command(self, example: Example) -> str:
        return self.shell(example.command)

    def game_revision(self) -> int | None:
        game = self.variables.get("GAME", "")
        if game not in self.names:
            return None
        answer = send(Request("GET", f"{self.host}/api/v1/games/{self.names[game]}/revision"))
        assert answer.status == 200
        return json.loads(answer.body)["revision"]

    def replay(self, example: Example) -> list[str]:
        """Send the example; what differs from the doc (empty when nothing does)."""
        if example.revision is not None and (now := self.game_revision()) is not None:
            if now != example.revision:
                return [f"the doc shows it at revision {example.revision}; the game is at {now}"]
        request = curl(self.command(example), self.files)
        answer = send(request)
        self.exchanges.append((request, answer))
        if request.save:
            self.files[saved_name(answer)] = answer.body
        problems = []
        if (answer.status, answer.phrase.lower()) != (example.status, example.phrase.lower()):
            problems.append(f"status {answer.status} {answer.phrase}, the doc shows {example.status} {example.phrase}")
        self.learn_names(example, answer)
        for name, value in example.headers:
            if answer.headers.get(name) != self.shell(value):
                problems.append(f"{name}: {answer.headers.get(name)!r}, the doc shows {self.shell(value)!r}")
        return problems + self.compare_body(example, answer)

    def compare_body(self, example: Example, answer: Answer) -> list[str]:
        if example.body is None:
            return []
        if example.body_kind == "csv":
            got = answer.body.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n").rstrip("\n")
            want = self.named(example.body).rstrip("\n")
            return [] if got == want else [f"the CSV is\n{got}\nthe doc shows\n{want}"]
        try:
            got = json.loads(answer.body)
        except ValueError:
            return [f"the answer is not JSON: {answer.body[:200]!r}"]
        assert shows_something(elided_json(example.body)), f"{example}: the whole body is elided"
        return mismatches(elided_json(self.named(example.body)), got)

    def learn_names(self, example: Example, answer: Answer) -> None:
        """A new game's answer (it shows ``edit_key``) or a new club night's (``organiser_key``): the
        doc's id and key stand for this one's; and wherever an answer shows a table's ``game_id``
        or ``edit_key`` (a club night's round), the doc's stands for this server's."""
        if example.body_kind != "json" or not any(k in (example.body or "") for k in (*MADE_KEYS, *TABLE_KEYS)):
            return
        shown, got = elided_json(example.body or ""), json.loads(answer.body)
        if isinstance(shown, dict) and isinstance(got, dict) and any(k in shown for k in MADE_KEYS):
            for key in ("id", *MADE_KEYS):
                if key in got and key in shown:
                    self.names.setdefault(shown[key], got[key])
        for doc_value, value in learnt(shown, got):
            self.names.setdefault(doc_value, value)


MADE_KEYS = ("edit_key", "organiser_key")  # an answer that makes a game or an event shows one
TABLE_KEYS = ("game_id", "edit_key")  # a club night's tables: their games' ids and edit keys


def learnt(shown: Any, got: Any) -> Iterator[tuple[str, str]]:
    """The doc's values under :data:`TABLE_KEYS` in ``shown`` and this server's at the same place
    in ``got``: objects by key, lists item by item up to the first ``…``."""
    if isinstance(shown, dict) and isinstance(got, dict):
        for key, item in shown.items():
            if key in TABLE_KEYS and isinstance(item, str) and isinstance(got.get(key), str):
                yield item, got[key]
            elif key in got:
                yield from learnt(item, got[key])
    elif isinstance(shown, list) and isinstance(got, list):
        for item, found in zip(shown, got, strict=False):
            if item == ELIDED:
                return
            yield from learnt(item, found)


@pytest.fixture
def live_server(tmp_path: Path, migrated_database: Path) -> Iterator[str]:
    """The app under the production server on a free loopback port, on a fresh database; yields its URL."""
    database = tmp_path / "docs.sqlite"
    shutil.copyfile(migrated_database, database)
    with served(database, "docs-examples", threads=2) as base:
        yield base


# -- tests -------------------------------------------------------------------------------------------


def test_every_request_example_in_the_api_doc_gets_the_answer_it_shows(live_server):
    variables, examples = read_doc(DOC.read_text(encoding="utf-8"))
    assert {"HOST", "GAME", "KEY"} <= set(variables)
    assert len(examples) >= 50, "examples went missing from docs/api.md (or stopped being read)"
    story = Story(live_server, variables)
    failures = []
    for example in examples:  # top to bottom
        problems = story.replay(example)
        if problems:
            failures.append(f"{example}\n  " + "\n  ".join(problems))
    assert not failures, f"{len(failures)} of {len(examples)} examples differ:\n" + "\n".join(failures)
    the_description_holds_the_storys_examples(story)


def the_description_holds_the_storys_examples(story: Story) -> None:
    """The description's examples (scorepad/api/examples.json) are what this story sent and got:
    ``SCOREPAD_WRITE_EXAMPLES=1`` writes them anew (after the doc or the server changed)."""
    with urllib.request.urlopen(f"{story.host}/api/v1/openapi.json") as response:
        description = json.load(response)
    harvested = harvest(description, story.exchanges, story.names)
    if os.environ.get("SCOREPAD_WRITE_EXAMPLES") == "1":
        EXAMPLES_FILE.write_text(json.dumps(harvested, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                                 encoding="utf-8")
    kept = examples()
    assert set(kept) == set(harvested), "run with SCOREPAD_WRITE_EXAMPLES=1 to write scorepad/api/examples.json"
    differ = {name: found[:3] for name in kept if (found := mismatches(kept[name], harvested[name]))}
    assert not differ, f"examples the server no longer gives (SCOREPAD_WRITE_EXAMPLES=1 writes them): {differ}"


def test_the_api_doc_tells_the_example_games_story_in_order():
    _, examples = read_doc(DOC.read_text(encoding="utf-8"))
    revisions = [(example.revision, example.line) for example in examples if example.revision is not None]
    back = [f"line {line} at revision {n} after revision {before}"
            for (before, _), (n, line) in zip(revisions, revisions[1:], strict=False) if n < before]
    assert not back, "docs/api.md goes back in the game's story: " + "; ".join(back)
    first = next(example for example in examples if "$GAME" in example.command)
    assert first.revision == 0, f"{first}: the first example about the game finds it new, at revision 0"


def test_an_example_is_a_curl_command_its_status_and_its_body():
    doc = """
```sh
curl -s $HOST/a
```

`200 OK`, `ETag: "x"`, as read:

```json
{"a": 1}
```

<!-- at revision 3 -->
```sh
curl -s -X DELETE $HOST/b \\
  -H "Authorization: Bearer $KEY"   # a comment
```

`200 OK`, `Content-Type: application/pdf`.
"""
    _, (first, second) = read_doc(doc)
    assert (first.status, first.phrase, first.headers, first.body) == (200, "OK", [("ETag", '"x"')], '{"a": 1}')
    assert (second.revision, second.headers, second.body) == (3, [("Content-Type", "application/pdf")], None)
    request = curl(second.command, {})
    assert (request.method, request.url, request.headers["Authorization"]) == ("DELETE", "$HOST/b", "Bearer $KEY")


def test_an_example_without_a_status_line_is_refused():
    with pytest.raises(AssertionError, match="no status line"):
        read_doc("```sh\ncurl -s $HOST/a\n```\n\n```json\n{}\n```\n")


def test_curl_sends_a_body_as_a_post_with_curls_content_type_and_reads_saved_files():
    request = curl("curl -d 'a=1' http://h/x", {})
    assert (request.method, request.data, request.headers["Content-Type"]) == \
        ("POST", b"a=1", "application/x-www-form-urlencoded")
    assert curl("curl -d '{\n}' http://h/x", {}).data == b"{\n}"
    assert curl("curl --data-binary @'f 1.json' http://h/x", {"f 1.json": b"{\n}"}).data == b"{\n}"
    assert curl("curl -d @'f 1.json' http://h/x", {"f 1.json": b"{\r\n}"}).data == b"{}"
    with pytest.raises(AssertionError, match="not one the replay reads"):
        curl("curl -L http://h/x", {})


def test_an_elided_list_matches_any_list_and_a_list_without_elision_exactly_its_items():
    assert mismatches(elided_json("[…]"), []) == mismatches(elided_json("[…]"), [1, 2]) == []
    assert mismatches(elided_json("[1, 2]"), [1, 2]) == []
    assert mismatches(elided_json("[1, 2]"), [1, 2, 3]) == ["$: the answer has 3 items, the doc shows 2"]
    assert mismatches(elided_json("[1, …]"), [1, 2, 3]) == []
    assert mismatches(elided_json("[1, …]"), [2, 1])
    assert mismatches(elided_json("[…, 3]"), [1, 2, 3]) == []
    assert mismatches(elided_json("[…, 3]"), [3, 2])
    assert mismatches(elided_json("[1, …, 3, 4, …]"), [1, 2, 3, 4, 5]) == []
    assert mismatches(elided_json("[1, …, 3, 4, …]"), [1, 3, 2, 4])


def test_an_elided_object_allows_more_keys_and_every_key_shown_is_compared():
    assert mismatches(elided_json('{"a": 1, …}'), {"a": 1, "b": 2}) == []
    assert mismatches(elided_json('{"a": 1, …}'), {"a": 2, "b": 2}) == ["$.a: the doc shows 1, the answer has 2"]
    assert mismatches(elided_json('{"a": 1}'), {"a": 1, "b": 2}) == ["$: keys the doc does not show: ['b']"]
    assert mismatches(elided_json('{"a": 1, "c": {…}}'), {"a": 1}) == ["$: keys the answer lacks: ['c']"]
    assert mismatches(elided_json('{"a": {…}}'), {"a": {"x": [1]}}) == []
    assert mismatches(elided_json('{"a": {…}}'), {"a": [1]})
    assert mismatches(elided_json('{"s": "…"}'), {"s": "x"}), "an ellipsis inside a string is text"
    assert not shows_something(elided_json("{…}")) and not shows_something(elided_json("[…]"))
    with pytest.raises(ValueError, match="a key shown twice"):
        elided_json('{"a": 1, "a": 2}')
    assert shows_something(elided_json('{"a": 1, …}'))


def test_times_and_numbered_ids_are_not_compared_but_their_keys_are():
    assert mismatches({"at": "2026-01-01", "id": 41}, {"at": "2027-02-02", "id": 7}) == []
    assert mismatches({"at": "2026-01-01"}, {}) == ["$: keys the answer lacks: ['at']"]
    assert mismatches({"id": "pagat"}, {"id": "common"}) == ["$.id: the doc shows 'pagat', the answer has 'common'"]
    assert mismatches({"n": 1}, {"n": True}), "true is not 1"


def test_the_docs_variables_stand_for_this_servers_values_in_headers_sent_and_shown():
    doc = '```sh\ncurl -s $HOST/api/v1/games/$GAME -H "If-None-Match: \\"$GAME.1\\""\n```\n\n' \
          '`304 Not Modified`, `ETag: "$GAME.1"`, `Location: /api/v1/games/71aN/deals/1`.\n'
    _, (example,) = read_doc(doc)
    story = Story("http://127.0.0.1:9", {"HOST": "http://localhost:8000", "GAME": "71aN", "KEY": "k"})
    story.names["71aN"] = "Qm2b"  # as a new game's answer teaches it
    request = curl(story.command(example), {})
    assert (request.url, request.headers["If-None-Match"]) == ("http://127.0.0.1:9/api/v1/games/Qm2b", '"Qm2b.1"')
    assert [story.shell(value) for _, value in example.headers] == ['"Qm2b.1"', "/api/v1/games/Qm2b/deals/1"]
