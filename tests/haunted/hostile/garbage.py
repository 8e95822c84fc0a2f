"""Returns a value of the shape named in the state."""


class Opaque:
    pass


def _cycle():
    items = []
    items.append(items)
    return items


SHAPES = {
    "none": lambda: None,
    "dict": lambda: {"moves": ["north"] * 3},
    "str": lambda: "north",
    "int": lambda: 42,
    "float": lambda: 1.5,
    "bool": lambda: True,
    "nested": lambda: [["north"], ["south"], ["east"], ["west"]],
    "set": lambda: {"north", "south"},
    "object": lambda: [Opaque(), "north", "south"],
    "bytes": lambda: [b"north", "north", "north"],
    "cycle": _cycle,
    "huge": lambda: ["north"] * 1_000_000,
    "four": lambda: ["north"] * 4,
}


def main(game_state, side):
    return SHAPES[game_state["shape"]]()
