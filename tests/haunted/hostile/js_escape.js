// Escape attempts: none of these exist in a bare V8 context.
function main(gameState, side) {
  var found = [];
  ["require", "process", "fetch", "XMLHttpRequest", "Deno", "Bun", "importScripts"].forEach(function (n) {
    if (typeof globalThis[n] !== "undefined") found.push(n);
  });
  try { var p = console.log.constructor("return typeof process")(); if (p !== "undefined") found.push("process via constructor"); } catch (e) {}
  return found.length ? found : ["none", "none", "none"];
}
