"""The JSON API under ``/api/v1``: games and deals, the referee's questions, export and
import. See ``docs/api.md``."""
