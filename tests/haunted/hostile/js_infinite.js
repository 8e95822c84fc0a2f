function main(gameState, side) { while (true) {} }
