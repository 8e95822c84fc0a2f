"""Per-round scratch (§3.5) and the execution of Do rows (§6.10): commands only write logs."""

from __future__ import annotations

from ..common.splitmix import SplitMix64
from .compiled import CENTRE, STEP, CView
from .events import Draw, Event, Firing, Issued
from .model import DIRECTIONS
from .world import Witnesses

MOVE_CODE = {name: code for code, name in enumerate(DIRECTIONS)}


class Round:
    """Logs of one round. Slots ``>= n`` are sprites created this round, in creation order."""

    def __init__(self, world, rng: SplitMix64, record: bool = True) -> None:
        state = world.state
        self.world = world
        self.state = state
        self.n = world.n
        self.rng = rng
        self.record = record
        self.events: list[Event] = []
        self.move_log: dict[int, list[int]] = {}
        self.stop: set[int] = set()
        self.destroy: set[int] = set()
        self.pending: dict[int, int] = {}
        self.cancelled: set[int] = set()
        self.paint_log: dict[int, list[int]] = {}
        self.created: list[tuple[int, int, int, str]] = []
        """(kind, x, y, phase) of created sprites; slot = n + position."""
        self.created_tiles: set[int] = set()
        self.created_at: dict[int, list[int]] = {}
        """flat tile -> created slots (phases 0–2 only: smash colliders)."""
        self.painted: list[tuple[int, int]] = []
        """(tile, kind) actually repainted at commit."""
        self.game_log: list[str] = []
        self.block_next: set[int] = set()
        self.press_matched: set[int] = set()
        self._free: dict[int, list[int]] = {}

    # --- sprite attributes over existing and created slots --------------------------------

    def sprite_id(self, slot: int) -> int:
        if slot < self.n:
            return self.state.ids[slot]
        return self.state.next_id + slot - self.n

    def kind(self, slot: int) -> int:
        return self.state.kinds[slot] if slot < self.n else self.created[slot - self.n][0]

    def position(self, slot: int) -> tuple[int, int]:
        if slot < self.n:
            return self.state.xs[slot], self.state.ys[slot]
        _, x, y, _ = self.created[slot - self.n]
        return x, y

    # --- Do rows ---------------------------------------------------------------------------

    def fire(self, phase: str, cv: CView, centre: int | None, witnesses: Witnesses,
             collider: int | None = None) -> None:
        """Run the view's Do rows for one firing; log what each command addressed."""
        if cv.moves_only is not None and not self.record:
            # Common case (walk, push, stop) without events: only move logs and stop flags.
            for position, code in cv.moves_only:
                if position == CENTRE:
                    who = centre
                elif phase == "smash":
                    who = collider if position == cv.collide_pos else None
                else:
                    who = next((slot for pos, slot in witnesses if pos == position), None)
                if who is None:
                    continue
                if code == 4:
                    self.stop.add(who)
                else:
                    log = self.move_log.get(who)
                    if log is None:
                        self.move_log[who] = [code]
                    else:
                        log.append(code)
            return
        bound = dict(witnesses)
        if phase == "smash":
            bound = {CENTRE: centre}
            if collider is not None:
                bound[cv.collide_pos] = collider
        cx, cy = self.position(centre) if centre is not None else (0, 0)
        width, height = self.state.width, self.state.height
        issued: list[Issued] = []
        for position, dx, dy, commands in cv.rows:
            witness = bound.get(position)
            if centre is None:
                tile: tuple[int, int] | None = None
            else:
                tile = (cx + dx, cy + dy)
                if not (0 <= tile[0] < width and 0 <= tile[1] < height):
                    tile = None
            made: int | None = None
            for command in commands:
                verb, arg = command.verb, command.arg
                target: int | tuple[int, int] | None = None
                new: int | None = None
                if verb == "move":
                    who = made if made is not None else witness
                    if who is not None:
                        if arg == "stop":
                            self.stop.add(who)
                        else:
                            self.move_log.setdefault(who, []).append(MOVE_CODE[arg])
                        target = self.sprite_id(who)
                elif verb == "destroy":
                    if witness is not None:
                        self.destroy.add(witness)
                        target = self.sprite_id(witness)
                elif verb == "paint":
                    if tile is not None:
                        flat = tile[1] * width + tile[0]
                        self.paint_log.setdefault(flat, []).append(int(arg[1:]))
                        target = tile
                elif verb == "create":
                    if tile is not None:
                        new = self._create(int(arg[1:]), tile, phase)
                        target = tile
                elif verb == "portal":
                    chosen = self._portal(int(arg[1:]))
                    if chosen is None:
                        if self.record:
                            issued.append(Issued(position, command, None))
                        break  # nowhere to go: the rest of this row is skipped
                    tile = chosen
                    target = tile
                elif verb == "block":
                    self.block_next.add(int(arg[1:]))
                elif verb == "game":
                    self.game_log.append(arg)
                made = new
                if self.record:
                    issued.append(Issued(position, command, target,
                                         None if new is None else self.sprite_id(new)))
        if self.record:
            self.events.append(Firing(
                phase, cv.rule_id, cv.transform,
                None if centre is None else self.sprite_id(centre),
                tuple((pos, self.sprite_id(slot)) for pos, slot in bound.items()
                      if slot is not None),
                tuple(issued),
            ))

    def _create(self, kind: int, tile: tuple[int, int], phase: str) -> int:
        slot = self.n + len(self.created)
        self.created.append((kind, tile[0], tile[1], phase))
        flat = tile[1] * self.state.width + tile[0]
        self.created_tiles.add(flat)
        if phase != "smash":
            self.created_at.setdefault(flat, []).append(slot)
        return slot

    def _portal(self, kind: int) -> tuple[int, int] | None:
        free = self._free.get(kind)
        if free is None:
            free = self._free[kind] = self.world.free_tiles(kind)
        eligible = [t for t in free if t not in self.created_tiles] if self.created_tiles else free
        if not eligible:
            return None
        choice = self.draw("portal", eligible)
        width = self.state.width
        return eligible[choice] % width, eligible[choice] // width

    def draw(self, site: str, candidates: list) -> int:
        """A uniform choice (§6.2): ``below(k)``, no draw when k = 1."""
        choice = self.rng.below(len(candidates))
        if self.record and len(candidates) > 1:
            self.events.append(Draw(site, tuple(candidates), choice))
        return choice

    # --- move resolution (§6.8) -----------------------------------------------------------

    def resolve_moves(self) -> None:
        from .events import MoveResolved

        width, height = self.state.width, self.state.height
        n, xs, ys = self.n, self.state.xs, self.state.ys
        pending, record = self.pending, self.record
        for slot in sorted(self.move_log):
            log = self.move_log[slot]
            d = log[self.draw("move", [DIRECTIONS[c] for c in log])] if len(log) > 1 else log[0]
            if slot < n:
                x, y = xs[slot], ys[slot]
            else:
                x, y = self.position(slot)
            nx, ny = x + STEP[d][0], y + STEP[d][1]
            cancelled = not (0 <= nx < width and 0 <= ny < height)
            if cancelled:
                self.cancelled.add(slot)
            else:
                pending[slot] = d
            if record:
                self.events.append(MoveResolved(self.sprite_id(slot), DIRECTIONS[d], cancelled))
