function mian(gameState, side) { return ["none", "none", "none"]; }
