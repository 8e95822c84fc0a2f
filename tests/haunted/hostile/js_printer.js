function main(gameState, side) {
  for (var i = 0; i < 2000; i++) console.log("x".repeat(1000));
  console.error("e".repeat(100000));
  return ["none", "none", "none"];
}
