// A script whose top level never finishes: the load limit must stop it.
for (;;) {}
function main(gameState, side) { return ["none", "none", "none"]; }
