"""Every bound in the product, in one table: what each one bounds, and why that number.

Input past a bound is refused with a message naming the field (a 4xx, never a 500): a
bound keeps one request, one game and one printed page small enough to serve quickly,
and each is far past anything a real table plays. Every module takes its bounds from here,
never a copy of its own; docs/api.md states them, and tests/api/test_bounds.py reads the doc
back against this table. The ranges of single sheet options (cards in a hand, points for a
book) are declared with each option in :data:`scorepad.rules.catalogue.OPTIONS`; the bounds
here are the ones several places share, and the length of every list a sheet holds.
"""

from __future__ import annotations

# -- the table: sides, players, names -------------------------------------------------------------

MIN_SIDES = 2  # sides in a game or a deal: Hand and Foot is played against someone
MAX_SIDES = 8  # sides in a game or a deal: eight individuals; a score pad prints 8 columns on a landscape page
MAX_PER_SIDE = 4  # players on one side: a sheet's side_sizes run from 1 (individuals) to partnerships of 4
MIN_PLAYERS = 2  # the least a sheet's min_players/max_players may be: two players alone
MAX_PLAYERS = 12  # the most a sheet's min_players/max_players may be: 3 sides of 4, 4 of 3, 6 of 2
MAX_NAME = 40  # characters in a name (a game, a side, a player, went_out): fits a phone's column and a pad's head
MAX_PHONE = 40  # characters in a phone's label ("Dan's phone", sent with each part of an open deal): as a name
MAX_GAME_ID = 64  # characters in a game id looked up: ids are 22; anything longer is no game, unread

# -- a deal ---------------------------------------------------------------------------------------

MAX_MELDS = 60  # melds on one side's table: a real table lays 10 to 20; this keeps a game's pages and JSON small
MAX_MELD_ROWS = MAX_MELDS + 2  # meld rows a deal form shows for one side: a full side and two blank rows
MAX_COUNT = 1_000  # cards in any count, card string or referee group: no pack (12 decks of 56) holds more
MAX_COUNTED_POINTS = 100_000  # points counted (meld_points, cards_left_points): 12 standard decks hold 7,080
MAX_CARD_STRING = 2_000  # characters in a card string: MAX_COUNT cards written out one by one ('K K K ...')
MAX_DEALS = 100  # deals in a game (its deal numbers, a game file, an export): a game to a target ends long before
MAX_REASON = 200  # characters in an as-played or amendment reason: a sentence, shown whole in the history
MAX_POINTS = 1_000_000_000  # a side's points (a total, a running total): far past any game; exact in JavaScript

# -- a game ---------------------------------------------------------------------------------------

ENTRY_BYTES = 160  # what one deal or history entry costs besides its JSON: its time, action and place
# Every write adds history: without this bound one client's corrections would grow a game (and
# every page, PDF and export of it) without end. Deals, history JSON and reasons count, plus
# ENTRY_BYTES for each deal and history entry.
MAX_GAME_BYTES = 2 * 1024 * 1024  # bytes a game stores: a hundred busy deals with their corrections
# An export holds the game's stored JSON again (compact, never longer) plus each entry's keys,
# time and order; reasons escaped for JSON (at most twice as long) could make it longer.
MAX_IMPORT_BYTES = 2 * MAX_GAME_BYTES + 64 * 1024  # bytes of an import body: the export of the fullest game

# -- a rule sheet: every list it holds --------------------------------------------------------------

MAX_SHEET_DEALS = 50  # values in a per-deal option (minimums, bonuses, books by deal): past them the last holds
MAX_BANDS = 20  # opening bands by running total: sheets print 3 or 4; each band is printed on every deal of a pad
MAX_SIDE_SIZES = 4  # sizes in side_sizes: one each of 1 to MAX_PER_SIDE
MAX_CARD_VALUES = 14  # entries in card_values: one per card with a value (A to 4, 2, JK, 3B)
MAX_SPECIAL_BOOKS = 11  # entries in special_books: one per rank that can be booked (A to 4)
MAX_THREE_BOOKS = 2  # entries in three_books: one each of red threes (3R) and black threes (3B)
MAX_DECKS_BY_PLAYERS = MAX_PLAYERS - MIN_PLAYERS + 1  # entries in decks_by_players: one per number of players
MAX_PILE_BLOCKERS = 3  # entries in pile_blocked_by: one each of black-three, red-three, wild
MAX_HOUSE_RULES = 12  # sentences in house_rules: a published sheet needs a few; twelve still fit the house-rule page
MAX_HOUSE_RULE = 200  # characters in one house rule: a sentence, as a reason is, printed on one or two lines

# -- following a game: its event stream (scorepad/api/events.py) --------------------------------

# Under granian's WSGI interface an open stream holds one of the server's threads, idle on a
# condition, for as long as it is open (`flask serve` starts this many besides --threads; see
# README, "Following a game"): this bounds them. Past it a listener is told (503) to poll
# GET /revision, as the pages do.
MAX_EVENT_LISTENERS = 256  # event streams one server process holds at once: bench/events.py held 256 in a few MB
MAX_EVENT_STREAM_SECONDS = 300  # seconds a stream stays open: then its thread is free, EventSource reconnects

# -- a club night (an event) --------------------------------------------------------------------

MAX_EVENT_TABLES = 40  # tables seated at once in one event: a large club's hall; 40 seat in well under a second
MAX_EVENT_PLAYERS = 4 * MAX_EVENT_TABLES  # players on an event's roster: four a table at MAX_EVENT_TABLES tables
MAX_EVENT_ROUNDS = 12  # rounds of an event: an evening plays 6 to 8; 12 still fits a long afternoon and evening
# Each attempt is one greedy build of the round's tables from a seeded shuffle, scored against
# every earlier round; the best is kept and a round without repeats stops the search at once.
# One attempt at 40 tables takes about 1 ms (bench/movement.py): all of them, under half a second.
MOVEMENT_SEARCH_TRIES = 200  # attempts of the search a round (generic, partners): 40 tables well under 1 s
# An event's export holds each table's game export (storage/club_night_document.py): a club
# night's game is a few deals, 5 to 20 KB with its history; the bound gives each of the most
# games an evening holds (MAX_EVENT_ROUNDS x MAX_EVENT_TABLES, 480) 64 KB, ten busy deals
# with corrections. A game as full as MAX_GAME_BYTES is exported and imported on its own.
MAX_EVENT_IMPORT_BYTES = (MAX_EVENT_ROUNDS * MAX_EVENT_TABLES + 16) * 64 * 1024  # event import: 64 KB a game, +1 MB
MAX_MEMBER = 20  # characters in a member number: clubs print four to eight digits, some with letters

# -- what one answer lists -----------------------------------------------------------------------

MAX_PROBLEMS_LISTED = 50  # a deal's problems in a game's JSON (problems_omitted counts the rest), a 422's errors: small
MAX_PROBLEMS_SHOWN = 5  # a deal's problems printed on a page or a PDF, then "and N more": a line or two
MAX_GAME_PROBLEMS_LISTED = 1_000  # all deals' problems in a game's JSON: a hundred deals list ten each, under 1 MB

# -- requests and pages -------------------------------------------------------------------------------

MAX_DEPTH = 20  # levels a JSON body may nest: a deal or a sheet needs about 6
MAX_NUMBER = MAX_POINTS  # any number in a JSON body: as large as a total may be, and no larger
MAX_INPUT = MAX_CARD_STRING + 1  # form input characters kept: one past a card string, so longer is refused, not cut
MAX_GAMES_REMEMBERED = 50  # games whose edit keys one browser keeps: the signed cookie stays under a browser's 4 KB
MAX_GAMES_WATCHED = 20  # games one browser opened without the key that it keeps (home lists them): likewise
MAX_EVENTS_LISTED = 10  # club nights a browser organises that home lists: an organiser runs one a week
MAX_PHONE_CHOICES = 10  # games whose side and owner a browser keeps (web/phones.py): a phone sits at one table a night
MAX_FILENAME = 80  # characters of a game's name in a download's file name: short enough for any file system
MAX_IDEMPOTENCY_KEY = 255  # characters in an Idempotency-Key: a UUID is 36; each is kept with its answer for a day
