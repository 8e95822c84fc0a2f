async function main(gameState, side) { for (;;) { await null; } }
