function main(gameState, side) { return ["none", "none", "none"];
