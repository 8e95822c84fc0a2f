"""Haunted Tiles projects on disk (haunted.md §4): what the kind plugs into storage (``kind``:
maps, teams, settings, tournaments), the project and its maps as the editors hold them
(``project``, ``maps``), the original game's ``maps.json`` (``maps_json``) and team list
(``teams_csv``), and replay files (``replay``)."""
