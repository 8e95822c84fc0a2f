// A Promise answer settled by a zero-delay timer, plus a cleared interval.
function main(gameState, side) {
  var ticks = 0;
  var id = setInterval(function () { ticks++; }, 1);
  return new Promise(function (resolve) {
    setTimeout(function () { clearInterval(id); resolve(["south", "east", "west"]); }, 0);
  });
}
