function main(gameState, side) {
  switch (gameState.shape) {
    case "undefined": return undefined;
    case "null": return null;
    case "object": return { moves: ["north"] };
    case "string": return "north";
    case "number": return 7;
    case "function": return function () {};
    case "bigint": return [1n];
    case "cycle": var a = []; a.push(a); return a;
    case "huge": return new Array(200000).fill("north");
  }
}
