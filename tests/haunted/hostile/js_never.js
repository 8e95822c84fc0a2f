function main(gameState, side) { return new Promise(function () {}); }
