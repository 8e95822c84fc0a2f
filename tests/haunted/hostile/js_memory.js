function main(gameState, side) {
  var hoard = [];
  for (;;) hoard.push(new Array(100000).fill(side));
}
