"""The rule editor's menus (tilecode.md §8.8): attribute, direction, button and command menus.

Each menu offers only what ``rule_edit`` allows, so a §3.4 error cannot be made from here.
Keys inside the attribute menu: ``i`` include, ``'`` include′ (include2), ``e`` exclude, ``r``
reset the tile, ``1``..``8`` toggle a kind (the spec's ``2`` for include2 would clash with kind
2, hence the apostrophe, as in the name include′).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

from studio.engines.tilecode.model import DIRECTIONS, KIND_CODES, Command, Game, Rule
from studio.engines.tilecode.rule_do import arg_choices, delete_command, set_command, verb_choices
from studio.engines.tilecode.rule_edit import (
    attribute_choices, button_choices, direction_choices, kind_choices, reset_tile, set_button,
    set_direction, toggle_attribute,
)
from studio.screens.tilecode.render import ARROWS, TileLook, look_for
from studio.widgets.menu import Menu, MenuItem

OTHER_KEYS = {"resting": "r", "moving": "m", "any": "a", "stop": "s"}
"""Keys for the direction menus' items that no arrow chooses: in those menus the arrows choose
their own direction at once, so they no longer walk the highlight to these."""

ATTRIBUTES = (("include", "✓ include", "i"), ("include2", "● include′", "'"),
              ("exclude", "⊘ exclude", "e"))
BADGES = {"include": "✓", "include2": "●", "exclude": "⊘", "dontcare": " "}
GAME_LABELS = {"win": "win", "lose": "lose", "score": "+10 score"}


class RuleHost(Protocol):
    """What the menus use of the rule editor screen that holds them (the screen imports this
    module, so it is described here rather than imported)."""

    game: Game
    rule: Rule
    styles_ui: object
    sub_title: str

    def change_rule(self, label: str, rule: Rule) -> None: ...

    def query_one(self, selector: type[Menu]) -> Menu: ...

    def notify(self, message: str, **options: object) -> None: ...

    def set_focus(self, widget: object) -> None: ...

    def _show_title(self) -> None: ...


class RuleMenus:
    """Opens the menu that fits the cursor's cell and applies what is chosen."""

    def __init__(self, screen: RuleHost) -> None:
        self.screen = screen
        self.mode: str | None = None
        self.target: tuple = ()
        self.attribute = "include"
        self.verb: str | None = None

    @property
    def menu(self) -> Menu:
        return self.screen.query_one(Menu)

    @property
    def look(self) -> TileLook:
        return look_for(self.screen.game, self.screen.styles_ui)

    # ------------------------------------------------------------------------------ open

    def open_for(self, cell: tuple) -> None:
        rule = self.screen.rule
        if rule is None:
            return
        kind = cell[0]
        if kind == "tile":
            self.target = cell[1:]
            if self.attribute not in attribute_choices(rule, *self.target):
                self.attribute = "include"
            self._open("attributes", self._attribute_rows(), ("set", "kinds"))
        elif kind == "button":
            items = [MenuItem(("button", b), "A" if b == "A" else f"{ARROWS[b]} {b}",
                              current=b == rule.button) for b in button_choices()]
            self._open("button", [items], ("button",))
        elif kind == "witness":
            self.target = cell[1:]
            choices = direction_choices(rule, *self.target)
            if not choices:
                self.screen.notify("No direction here: the tile binds no sprite witness "
                                   "(include only sprite kinds on it).", timeout=3)
                return
            record = rule.tile(*self.target)
            current = record.dir if record is not None else "any"
            items = [MenuItem(("dir", d), f"{ARROWS[d]} {d}", OTHER_KEYS.get(d),
                              current=d == current, arrow=d if d in DIRECTIONS else None)
                     for d in choices]
            self._open("direction", [items], ("direction",))
        elif kind == "cmd":
            self.target = cell[1:]
            col, row, index = self.target
            record = rule.tile(col, row)
            commands = record.do if record is not None else ()
            if index < len(commands):
                command = commands[index]
                self.verb = command.verb
                items = self._arg_items(command.verb, command.arg)
                items.append(MenuItem(("delete",), "✗ delete", "d"))
                self._open("args", [items], (command.verb,))
            else:
                verbs = verb_choices(rule, col, row, index)
                if not verbs:
                    self.screen.notify("No command can go in this slot (§3.4).", timeout=3)
                    return
                items = [MenuItem(("verb", v), v) for v in verbs]
                self._open("verbs", [items], ("command",))

    def _open(self, mode: str, rows, titles) -> None:
        self.mode = mode
        self.menu.open(rows, titles)

    def _attribute_rows(self) -> list[list[MenuItem]]:
        rule = self.screen.rule
        col, row = self.target
        record = rule.tile(col, row) if rule is not None else None
        allowed = attribute_choices(rule, col, row)
        only = "smash rules take include only" if rule is not None and rule.type == "smash" \
            else "not on this tile"
        first = [MenuItem(("attr", name), label, key, enabled=name in allowed,
                          current=name == self.attribute, why=only)
                 for name, label, key in ATTRIBUTES]
        first.append(MenuItem(("reset",), "reset tile", "r"))
        look = self.look
        offered = kind_choices(rule, col, row, self.attribute)
        shown = kind_choices(rule, col, row)
        kinds = []
        for code in shown:
            index = KIND_CODES.index(code)
            glyph, style = look.code_glyph(code)
            attribute = record.attribute(code) if record is not None else "dontcare"
            kinds.append(MenuItem(("kind", code), f"{glyph}{BADGES[attribute]}", str(index + 1),
                                  style=style, enabled=code in offered,
                                  current=attribute == self.attribute,
                                  why=f"not with {self.attribute} on this tile"))
        return [first, kinds]

    def _arg_items(self, verb: str, current: str | None = None) -> list[MenuItem]:
        rule = self.screen.rule
        game = self.screen.game
        look = self.look
        items = []
        for arg in arg_choices(rule, verb):
            if arg in KIND_CODES:
                glyph, style = look.code_glyph(arg)
                kinds = game.backgrounds if arg.startswith("b") else game.sprites
                label = f"{glyph} {kinds[int(arg[1])].name}"
                items.append(MenuItem(("arg", arg), label, style=style, current=arg == current))
            elif verb == "game":
                items.append(MenuItem(("arg", arg), GAME_LABELS[arg], current=arg == current))
            else:
                label = "■ stop" if arg == "stop" else f"{ARROWS[arg]} {arg}"
                items.append(MenuItem(("arg", arg), label, OTHER_KEYS.get(arg),
                                      current=arg == current,
                                      arrow=arg if arg in DIRECTIONS else None))
        return items

    # ---------------------------------------------------------------------------- choices

    def chosen(self, key: Hashable) -> None:
        rule = self.screen.rule
        if rule is None or not isinstance(key, tuple):
            return
        what = key[0]
        if what == "attr":
            self.attribute = key[1]
            self.menu.update_rows(self._attribute_rows())
        elif what == "reset":
            self.screen.change_rule(f"reset tile {self.target}", reset_tile(rule, *self.target))
            self.menu.update_rows(self._attribute_rows())
        elif what == "kind":
            code = key[1]
            col, row = self.target
            new = toggle_attribute(rule, col, row, code, self.attribute)
            state = new.tile(col, row).attribute(code) if new.tile(col, row) else "dontcare"
            verb = self.attribute if state == self.attribute else "don't care"
            self.screen.change_rule(f"{verb} {code} at ({col},{row})", new)
            self.menu.update_rows(self._attribute_rows())
        elif what == "dir":
            self.screen.change_rule(f"dir {key[1]} at {self.target}",
                                    set_direction(rule, *self.target, key[1]))
            self.close()
        elif what == "button":
            self.screen.change_rule(f"button {key[1]}", set_button(rule, key[1]))
            self.close()
        elif what == "verb":
            self.verb = key[1]
            if arg_choices(rule, key[1]):
                self._open("args", [self._arg_items(key[1])], (key[1],))
            else:
                self._set(Command(key[1]))
        elif what == "arg":
            self._set(Command(self.verb, key[1]))
        elif what == "delete":
            self.delete_command(*self.target)

    def _set(self, command: Command) -> None:
        rule = self.screen.rule
        col, row, index = self.target
        self.screen.change_rule(f"command {command.text} at ({col},{row})",
                                set_command(rule, col, row, index, command))
        self.close()

    def delete_command(self, col: int, row: int, index: int) -> None:
        rule = self.screen.rule
        record = rule.tile(col, row) if rule is not None else None
        if record is None or index >= len(record.do):
            return
        text = record.do[index].text
        self.screen.change_rule(f"delete {text} at ({col},{row})",
                                delete_command(rule, col, row, index))
        self.close()

    def highlighted(self, key: Hashable) -> None:
        """Name what the menu cursor is on (kinds are glyphs in the menu)."""
        if isinstance(key, tuple) and key and key[0] == "kind":
            code = key[1]
            game = self.screen.game
            kinds = game.backgrounds if code.startswith("b") else game.sprites
            self.screen.sub_title = f"{code} {kinds[int(code[1])].name}"

    def close(self) -> None:
        self.mode = None
        self.menu.close()
        self.screen.set_focus(None)

    def closed(self) -> None:
        self.mode = None
        self.screen.set_focus(None)
        self.screen._show_title()

