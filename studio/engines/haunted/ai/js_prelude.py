"""The JavaScript prelude installed in every fresh V8 context before the AI's script (§8.2).

Kept as a Python string (not a ``.js`` file) so it ships with the package like any module.
``SEED_LOW``, ``SEED_HIGH`` and ``OUTPUT_LIMIT`` are replaced by numbers before evaluation.
"""

PRELUDE = r"""
// Installed in every fresh V8 context before the AI's script (spec haunted.md §8.2).
// Everything of ours hangs off one non-enumerable global, __studio; the rest mimics a browser
// worker closely enough for the original scripts: console, self, timers, a seeded Math.random.
(function (global, seedLow, seedHigh, outputLimit) {
  "use strict";
  var out = ["", ""], dropped = [false, false];
  function write(stream, args) {
    var text = Array.prototype.map.call(args, function (a) {
      if (typeof a === "string") return a;
      try { var j = JSON.stringify(a); return j === undefined ? String(a) : j; }
      catch (e) { return String(a); }
    }).join(" ") + "\n";
    var room = outputLimit - out[stream].length;
    if (room > 0) out[stream] += text.slice(0, room);
    if (text.length > room) dropped[stream] = true;
  }
  var console = {};
  ["log", "info", "debug", "trace"].forEach(function (n) { console[n] = function () { write(0, arguments); }; });
  ["warn", "error"].forEach(function (n) { console[n] = function () { write(1, arguments); }; });
  global.console = console;
  global.self = global;
  global.globalThis = global;

  // sfc32 seeded from the round's AI seed: the same seed gives the same numbers.
  var a = seedLow | 0, b = seedHigh | 0, c = 0x9e3779b9 | 0, d = 1;
  function random() {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    var t = (a + b) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11); d = (d + 1) | 0; t = (t + d) | 0; c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  for (var i = 0; i < 16; i++) random();
  Math.random = random;

  // Our own timers: the built-in setTimeout of mini-racer throws. The worker calls poll() while
  // an answer is pending; due timers run in due-time order (then creation order).
  var timers = [], nextId = 1;
  function add(fn, delay, args, repeat) {
    var id = nextId++;
    delay = Math.max(0, Number(delay) || 0);
    timers.push({ id: id, due: Date.now() + delay, fn: fn, args: args, every: repeat ? delay : -1 });
    return id;
  }
  function clear(id) { timers = timers.filter(function (t) { return t.id !== id; }); }
  global.setTimeout = function (fn, delay) { return add(fn, delay, Array.prototype.slice.call(arguments, 2), false); };
  global.setInterval = function (fn, delay) { return add(fn, delay, Array.prototype.slice.call(arguments, 2), true); };
  global.clearTimeout = clear;
  global.clearInterval = clear;

  var settled = null;
  function finish(ok, value) {
    if (ok) {
      var text;
      try { text = JSON.stringify(value); } catch (e) { return finish(false, "bad_shape: " + e); }
      settled = text === undefined ? { kind: "bad_shape", error: "the answer is " + typeof value }
                                   : { ok: true, json: text };
    } else {
      settled = typeof value === "string" && value.indexOf("bad_shape: ") === 0
        ? { kind: "bad_shape", error: value.slice(11) }
        : { kind: "exception", error: describe(value) };
    }
  }
  function describe(e) {
    if (e && e.stack) return String(e.stack);
    try { return "uncaught " + String(e); } catch (_) { return "uncaught exception"; }
  }
  var studio = {
    check: function () {
      if (typeof global.main !== "function" && typeof main !== "function")
        throw new TypeError("the AI defines no function main(gameState, side)");
    },
    start: function (state, side) {
      settled = null;
      try {
        var result = main(state, side);
        if (result && typeof result.then === "function") {
          result.then(function (v) { finish(true, v); }, function (e) { finish(false, e); });
        } else {
          finish(true, result);
        }
      } catch (e) { finish(false, e); }
      return studio.poll();
    },
    // Runs due timers; returns the settled answer, or the milliseconds until the next timer
    // (-1: none is set, only the time limit can end the wait).
    poll: function () {
      for (;;) {
        if (settled) { settled.output = takeOutput(); return JSON.stringify(settled); }
        if (!timers.length) return -1;
        timers.sort(function (x, y) { return x.due - y.due || x.id - y.id; });
        var wait = timers[0].due - Date.now();
        if (wait > 0) return wait;
        var t = timers.shift();
        if (t.every >= 0) timers.push({ id: t.id, due: Date.now() + t.every, fn: t.fn, args: t.args, every: t.every });
        try { if (typeof t.fn === "function") t.fn.apply(global, t.args); } catch (e) { finish(false, e); }
        // Promise reactions queued by the callback run only once this eval returns: poll again.
        return 0;
      }
    },
    output: function () { return JSON.stringify(takeOutput()); }
  };
  // Output travels with the answer, so a move costs one eval (each eval is a thread hand-off).
  function takeOutput() {
    var taken = [out[0] + (dropped[0] ? "…truncated" : ""), out[1] + (dropped[1] ? "…truncated" : "")];
    out = ["", ""]; dropped = [false, false];
    return taken;
  }
  Object.defineProperty(global, "__studio", { value: studio, enumerable: false });
})(this, SEED_LOW, SEED_HIGH, OUTPUT_LIMIT);
"""
