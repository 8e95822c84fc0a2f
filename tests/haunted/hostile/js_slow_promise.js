function main(gameState, side) {
  return new Promise(function (r) { setTimeout(function () { r(["none", "none", "none"]); }, 3000); });
}
