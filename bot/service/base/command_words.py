"""The words of a command a reader fills in (GAME, DAYS), said in capitals in their language,
for the commands the service's messages name (`engines.text.command`): each front end
spells those commands its own way (`/escape start GAME` in a chat, `start GAME` at the
terminal), so a message never carries `/escape` itself."""

from __future__ import annotations

from engines.text import in_context

GAME = in_context("command argument", "GAME")
ACTION = in_context("command argument", "ACTION")
DAYS = in_context("command argument", "DAYS")
OPTIONS = in_context("command argument", "[OPTIONS]")
# an example of a time zone where the reader may live (said as a name is typed: Europe/Madrid)
ZONE = in_context("time zone example", "Europe/Berlin")
