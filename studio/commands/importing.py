"""``studio import``: a game from another tool, whichever kind it is — a trrbt YAML/JSON game,
original TileCode games (settings JSON or ``games.ts``), or an original Haunted Tiles
``maps.json`` added to a project. Each kind's commands read their own formats; this one asks
each in turn."""

from __future__ import annotations

import argparse
from pathlib import Path

from studio.commands import command
from studio.commands.btree.formats import import_trrbt_file, missing_links_option
from studio.commands.haunted.maps_import import import_haunted_maps
from studio.commands.tilecode.games_import import import_tilecode_file


def _import_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a trrbt game (.yaml, .yml or .json), original TileCode games "
                        "(settings .json or games.ts), or an original Haunted Tiles maps.json "
                        "(with --into)")
    parser.add_argument("-o", "--output", metavar="OUT.toml",
                        help="project file to write (default: named after the game, in the current folder)")
    parser.add_argument("--into", metavar="PROJECT.toml",
                        help="add the maps of a Haunted Tiles maps.json to this project "
                        "(saved with a backup)")
    parser.add_argument("--force", action="store_true", help="overwrite OUT.toml if it exists")
    missing_links_option(parser, "error")


@command("import", _import_arguments)
def _import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    haunted = import_haunted_maps(path, args.into)  # maps.json into an existing project
    if haunted is not None:
        return haunted
    tilecode = import_tilecode_file(path, args.output, args.force)  # settings JSON or games.ts
    if tilecode is not None:
        return tilecode
    return import_trrbt_file(path, args.output, args.force, args.missing_links)
