// Keeps 1 GB of ArrayBuffers, touched so they are resident: outside the V8 heap's 64 MB cap.
function main(gameState, side) {
  var hoard = [];
  try {
    for (var i = 0; i < 1024; i++) {
      var buffer = new ArrayBuffer(1 << 20);
      new Uint8Array(buffer).fill(7);
      hoard.push(buffer);
    }
  } catch (e) {
    console.log("held " + hoard.length + " MB: " + e);
    throw e;
  }
  console.log("held " + hoard.length + " MB");
  return ["none", "none", "none"];
}
