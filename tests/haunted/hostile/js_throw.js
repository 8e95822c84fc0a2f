function main(gameState, side) { throw new Error("boom from JS"); }
