// Sloppy mode as written: ``eval`` used as a variable name, ``const main`` at top level.
var eval = 3;
with ({ dir: "west" }) { var chosen = dir; }
const main = (gameState, side) => [chosen, "none", side === "home" ? "south" : "north"];
