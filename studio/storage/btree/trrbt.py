"""trrbt game files on disk: reading, include resolution, import as one self-contained project.

The engine never reads files; this module gives it a resolver (spec §6.1, Decision 9: an
``x-file`` is resolved relative to the folder of the file that contains it, trying ``.toml``
(studio project), ``.yaml``, ``.yml`` and ``.json``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from studio.engines.btree import (
    BtreeError, Compiled, Game, Resolver, compile_game, parse_json_game, parse_yaml_game,
)
from studio.engines.btree.model.schema import Node
from studio.engines.common.limits import MAX_GAME_BYTES
from studio.storage import served
from studio.storage.btree.kind import body_to_game, game_to_body, pids_of
from studio.storage.errors import ProjectError
from studio.storage.project import (
    MAX_NAME_LENGTH,
    Project,
    ProjectHeader,
    load_project,
    read_text_file,
    validate_name,
)

GAME_SUFFIXES = (".yaml", ".yml", ".json")
INCLUDE_SUFFIXES = (".toml", ".yaml", ".yml", ".json")


def load_trrbt(path: str | Path) -> Game:
    """Read a trrbt YAML (reshaped) or JSON game. Raises :class:`BtreeError` or :class:`ProjectError`."""
    path = Path(path)
    if path.suffix.lower() not in GAME_SUFFIXES:
        raise ProjectError("not a trrbt game file", file=path, hint="expected .yaml, .yml or .json")
    text = read_text_file(path, MAX_GAME_BYTES, "a trrbt game")
    if path.suffix.lower() == ".json":
        return parse_json_game(text, str(path))
    return parse_yaml_game(text, str(path))


def load_game(path: str | Path) -> Game:
    """An authored game from a trrbt file or a btree project (.toml)."""
    path = Path(path)
    if path.suffix.lower() == ".toml":
        project = load_project(path)
        if project.kind != "btree":
            raise ProjectError(f"this is a {project.kind} project, not a behaviour tree", file=path)
        return body_to_game(project.body, project.name)
    return load_trrbt(path)


def file_resolver(top: str | Path) -> Resolver:
    """The include resolver for a game file at ``top`` (keys are absolute paths as text)."""
    top_folder = Path(top).resolve().parent
    cache: dict[str, Node] = {}  # level files all include the same mechanics file: read it once

    def resolve(file: Any, including: str) -> tuple[str, Node] | None:
        if not isinstance(file, str) or not file:
            return None
        folder = Path(including).parent if including else top_folder
        for suffix in INCLUDE_SUFFIXES:
            candidate = folder / (file + suffix)
            if candidate.is_file():
                key = str(candidate.resolve())
                if key not in cache:
                    try:
                        game = load_game(candidate)
                    except ProjectError as exc:
                        raise BtreeError(f"cannot load include: {exc}", file=str(candidate)) from None
                    if game.tree is None:
                        raise BtreeError("the included game has no tree", file=str(candidate))
                    cache[key] = game.tree
                return key, cache[key]
        return None

    return resolve


def load_compiled(path: str | Path, missing_links: str | None = None) -> Compiled:
    """Load and compile a btree project (.toml) or a trrbt game (.yaml/.yml/.json).

    Args:
        path: the game or project file.
        missing_links: ``"error"`` or ``"empty"``; default: the project's setting, else error.

    Raises:
        ProjectError: unreadable files. BtreeError: authoring errors, naming the node.
    """
    path = Path(path)
    if path.suffix.lower() == ".toml":
        project = load_project(path)
        if project.kind != "btree":
            raise ProjectError(f"this is a {project.kind} project, not a behaviour tree", file=path)
        game = body_to_game(project.body, project.name)
        if missing_links is None:
            missing_links = project.body.get("btree", {}).get("missing_links", "error")
    else:
        game = load_trrbt(path)
    if game.tree is None:
        raise BtreeError("the game has no tree", file=str(path))
    return _compile(game, missing_links or "error", file_resolver(path), path)


def _compile(game: Game, missing_links: str, resolver: Resolver | None, path: Path) -> Compiled:
    """compile_game, whose recursion through includes (each file's tree nested in the one that
    includes it) no single file's depth limit bounds: past Python's stack, it is an error of
    the game, not a crash. Pure-Python recursion raises RecursionError cleanly."""
    try:
        return compile_game(game, missing_links=missing_links, resolver=resolver, file=str(path))
    except RecursionError:
        raise BtreeError("the tree nests too deep once its includes and links are expanded",
                         file=str(path), hint="check for a chain of x-file includes") from None


# ------------------------------------------------------------------------------------ import


def inline_includes(game: Game, resolver: Resolver | None, missing_links: str = "error") -> Game:
    """The game with every ``x-file`` replaced by an ``x-link`` and each included file carried once.

    A file's tree is placed, inside an ``x-prune``, right after the first ``x-file`` that loads
    it, so the id pass registers its nids at the same moment as before (first registration wins)
    and the expanded tree is unchanged.
    """
    loaded: set[str] = set()

    def convert(node: Node, key: str) -> list[Node]:
        out = dict(node)
        if isinstance(node.get("children"), list):
            out["children"] = [made for child in node["children"] for made in convert(child, key)]
        if node.get("type") != "x-file":
            return [out]
        link = {"type": "x-link", **{k: v for k, v in out.items() if k not in ("type", "file")}}
        found = resolver(node.get("file"), key) if resolver else None
        if found is None:
            if missing_links == "error":
                raise BtreeError(f"include file {node.get('file')!r} not found",
                                 node_type="x-file", hint="import with --missing-links empty")
            return [link]
        file_key, tree = found
        if file_key in loaded:
            return [link]
        loaded.add(file_key)
        carried = convert(tree, file_key)
        library = {"type": "x-prune", "comment": f"x-file include: {node.get('file')}", "children": carried}
        return [link, library]

    assert game.tree is not None
    made = convert(game.tree, "")
    tree = made[0] if len(made) == 1 else {"type": "x-ident", "children": made}
    return Game(name=game.name, tree=tree, sprites=game.sprites, warnings=list(game.warnings))


def import_game(path: str | Path, missing_links: str = "error", source: str | None = None) -> tuple[Project, Compiled]:
    """Import a trrbt YAML/JSON game as one self-contained btree project.

    Returns the project (not saved) and its compiled game. Raises :class:`BtreeError` for
    authoring errors (the game must compile) and :class:`ProjectError` for unreadable files.
    """
    path = Path(path)
    game = load_trrbt(path)
    if game.tree is None:
        raise BtreeError("the game has no tree", file=str(path))
    resolver = file_resolver(path)
    _compile(game, missing_links, resolver, path)  # errors first
    carried = inline_includes(game, resolver, missing_links)
    compiled = _compile(carried, missing_links, None, path)
    warnings: list[str] = []
    provenance = {"source": source or path.name}
    body = game_to_body(
        carried, missing_links=missing_links, seats={pid: "human" for pid in pids_of(compiled)},
        provenance=provenance, warnings=warnings,
    )
    name = "".join(c for c in game.name if c.isprintable()).strip()[:MAX_NAME_LENGTH].strip() or path.stem
    project = Project(ProjectHeader("btree", validate_name(name), 1), body)
    compiled.game.warnings.extend(warnings)  # type: ignore[union-attr]
    return project, compiled


def as_project_error(exc: BtreeError, path: Path) -> ProjectError:
    """A BtreeError as storage's one error type: file, then node path, type and message."""
    text = str(dataclasses.replace(exc, file=""))
    return ProjectError(text, file=Path(exc.file) if exc.file else path, hint="")


def import_warnings(compiled: Compiled) -> list[str]:
    """What an import changed or dropped, and what the compiler warned of, for the user."""
    return [*compiled.warnings, *(compiled.game.warnings if compiled.game else ())]


def distinct_name(project: Project, path: Path, folder: Path) -> None:
    """Name the project after its file too when its game's name is taken in ``folder``.

    Levels of one game share its name ("blockdude levels"): a second import named the same
    would make two rows on the home screen that nobody can tell apart.
    """
    from studio.storage.folder import free_path, slug

    if free_path(folder, project.name).stem != slug(project.name):
        project.header.name = f"{project.name} ({path.stem})"[:MAX_NAME_LENGTH]


def import_into_folder(path: str | Path, folder: str | Path, name: str | None = None,
                       missing_links: str = "error") -> tuple[Project, list[str]]:
    """Import a trrbt game as a new project file in ``folder``, never over an existing file.

    ``name``: the project's name (default: the game's, made distinct). Returns the saved
    project (its ``path`` set) and the import's warnings. Raises :class:`ProjectError`.
    """
    from studio.storage.folder import save_new

    path, folder = Path(path), Path(folder)
    try:
        project, compiled = import_game(path, missing_links)
    except BtreeError as exc:
        raise as_project_error(exc, path) from None
    if name is None:
        distinct_name(project, path, folder)
    else:
        project.header.name = validate_name(name)
    save_new(project, folder)
    return project, import_warnings(compiled)


# ------------------------------------------------------------------------------------ export


def export_target(folder: Path, text: str) -> Path:
    """The file an export named ``text`` goes to (relative to ``folder``); its suffix picks the
    format. Raises :class:`ProjectError` for a name that is no trrbt file or is taken."""
    text = text.strip()
    if not text:
        raise ProjectError("give a file name, e.g. game.yaml or game.json")
    target = folder / Path(text).expanduser()
    if target.suffix.lower() not in GAME_SUFFIXES:
        raise ProjectError("the name must end in .yaml, .yml or .json (that picks the format)")
    served.inside(target, "the export", write=True, shown=text)
    if target.exists() or target.is_symlink():
        raise ProjectError(f"{target.name} exists: give another name (an export never "
                           "overwrites a file)")
    return target


def export_game(game: Game, target: Path) -> Path:
    """Write ``game`` as a trrbt file at ``target`` (YAML or JSON by its suffix), never over
    another file. Raises :class:`ProjectError`."""
    from studio.engines.btree import export_json, export_yaml
    from studio.storage.atomic import atomic_write

    writer = export_json if target.suffix.lower() == ".json" else export_yaml
    try:
        atomic_write(target, writer(game).encode(), backup=False, exclusive=True)
    except FileExistsError:
        raise ProjectError("the file exists: an export never overwrites a file", file=target,
                           hint="give another name") from None
    except OSError as exc:
        raise ProjectError(f"cannot write: {exc.strerror or exc}", file=target) from None
    return target
