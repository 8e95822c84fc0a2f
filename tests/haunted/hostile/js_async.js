async function main(gameState, side) {
  await new Promise(function (r) { setTimeout(r, 20); });
  return ["north", "north", "north"];
}
