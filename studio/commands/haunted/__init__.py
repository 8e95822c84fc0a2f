"""The ``studio`` commands of Haunted Tiles: matches and tournaments (``match``, with
``entrants``), replays (``replay``), maps (``maps_import``, ``mapcheck``) and starter AIs
(``ai``)."""
