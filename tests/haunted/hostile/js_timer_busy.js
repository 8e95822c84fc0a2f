function main(gameState, side) {
  return new Promise(function (r) { setTimeout(function () { for (;;) {} }, 0); });
}
