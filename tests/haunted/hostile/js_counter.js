// Well-behaved: global state persists within a round; Math.random is seeded.
var turns = 0;
var first = Math.random();
function main(gameState, side) {
  turns++;
  console.log("turn", turns, side);
  return ["none", "none", turns + ":" + first + ":" + Math.random()];
}
