"""Haunted Tiles use cases that a command and a screen share and that touch files or processes:
entrants and match plans (``entrants``), AI files and their checks (``ai_files``, ``checks``),
live matches (``live``), the team registry (``teams``), replays (``replays``), tournaments and
their results (``tournament``, ``results``)."""
