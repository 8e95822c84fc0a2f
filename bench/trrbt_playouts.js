// Random playouts on trrbt's own engine.js under node, for bench/btree.py (issue 32).
//
//     node bench/trrbt_playouts.js ENGINE_JS GAME_JSON GAMES CAP [CHOOSER]
//
// ENGINE_JS is the reference's docs/engine.js (not shipped with the studio: its path is given).
// The page loads common.js (node types, deepcopyobj, bind0, samepropsobj) before it: when a
// common.js lies beside ENGINE_JS it is loaded first, as on the page; names still missing get
// small stand-ins below. Only the engine classes are evaluated: the web page's class after them
// needs a browser.
//
// GAME_JSON is an expanded corpus game ({"name", "tree"}). Game g (from 0) runs from a fresh
// state seeded g + 1 (setRandomSeed, as the reference's scripts seed it) to the end or CAP
// choices (0: no cap), through the engine's own driver as its scripts drive it:
// stepToWaitChoiceOrResult, then clearChoiceWait(true, index) for each choice.
// CHOOSER picks each index uniformly:
//   splitmix (default): the studio's SplitMix64 seeded g + 1 with its rejection bound, so
//       these are the very games the studio's playouts play (the bench checks the lengths);
//   math: Math.random, for a look at the engine alone (no BigInt draws).
// The games are played once untimed first (V8's warm-up), then timed.
// Prints {"games", "turns", "seconds", "draw_seconds", "lengths", "results"} as JSON.
// draw_seconds is the time the same SplitMix64 draws take alone (0 for math), measured after
// the run, so the bench can take the chooser out of engine.js's time. Parsing is not timed.
'use strict';

const fs = require('fs');
const path = require('path');

const [enginePath, gamePath, gamesArg, capArg, chooserArg] = process.argv.slice(2);
let source = fs.readFileSync(enginePath, 'utf8');
const web = source.indexOf('class TRRBTWebEngine');
if (web >= 0) {
    source = source.slice(0, web);
}
const commonPath = path.join(path.dirname(enginePath), 'common.js');
const common = fs.existsSync(commonPath) ? fs.readFileSync(commonPath, 'utf8') : '';

// Stand-ins for what engine.js takes from common.js, only where nothing declares the name:
// an engine.js newer than the common.js beside it (rewrite-all) needs ND_REWRITE_ALL.
const declared = (name) => new RegExp(`(const|let|var|function)\\s+${name}\\b`).test(common + source);
const standIns = {
    ND_PLAYER: "'player'", ND_WIN: "'win'", ND_LOSE: "'lose'", ND_DRAW: "'draw'",
    ND_ORDER: "'order'", ND_ALL: "'all'", ND_NONE: "'none'", ND_RND_TRY: "'random-try'",
    ND_LOOP_UNTIL_ALL: "'loop-until-all'", ND_LOOP_TIMES: "'loop-times'",
    ND_REWRITE: "'rewrite'", ND_REWRITE_ALL: "'rewrite-all'", ND_SET_BOARD: "'set-board'",
    ND_MATCH: "'match'", ND_MATCH_TIMES: "'match-times'", ND_LAYER_TEMPLATE: "'layer-template'",
    ND_APPEND_ROWS: "'append-rows'", ND_APPEND_COLS: "'append-columns'",
    ND_DISPLAY_BOARD: "'display-board'",
    deepcopyobj: '(obj) => (obj === null || obj === undefined) ? obj : JSON.parse(JSON.stringify(obj))',
    bind0: '(obj, name) => obj[name].bind(obj)',
    samepropsobj: '(a, b) => { const ka = Object.getOwnPropertyNames(a), kb = Object.getOwnPropertyNames(b);'
        + ' return ka.length === kb.length && ka.every((k) => kb.indexOf(k) >= 0); }',
};
const missing = Object.keys(standIns).filter((name) => !declared(name));
const helpers = missing.map((name) => `const ${name} = ${standIns[name]};`).join('\n');
const make = new Function(common + '\n' + helpers + '\n' + source +
    '\nreturn { TRRBTEngine, TRRBTState, ENG_UNDO_NONE };');
const { TRRBTEngine, TRRBTState, ENG_UNDO_NONE } = make();

// The studio's SplitMix64 (studio/engines/common/splitmix.py): same constants, same rejection
// bound in below(n), so the same draws are consumed for the same n.
const MASK = (1n << 64n) - 1n;
class SplitMix64 {
    constructor(seed) { this.state = BigInt(seed); }
    next64() {
        this.state = (this.state + 0x9E3779B97F4A7C15n) & MASK;
        let z = this.state;
        z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
        z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
        return z ^ (z >> 31n);
    }
    below(n) {
        if (n === 1) {
            return 0;
        }
        const bn = BigInt(n);
        const limit = (1n << 64n) - ((1n << 64n) % bn);
        for (;;) {
            const x = this.next64();
            if (x < limit) {
                return Number(x % bn);
            }
        }
    }
}

const game = JSON.parse(fs.readFileSync(gamePath, 'utf8'));
const games = parseInt(gamesArg, 10);
const cap = parseInt(capArg, 10);
const splitmix = (chooserArg || 'splitmix') === 'splitmix';
// One engine, as the reference's scripts make it (no undo); each game a fresh state, seeded.
const engine = new TRRBTEngine({ name: game.name, tree: game.tree }, ENG_UNDO_NONE);
engine.onLoad();

// One pass over the games: each one's length, how it ended, and each draw's n.
function play(lengths, results, counts) {
    for (let g = 0; g < games; g += 1) {
        engine.state = new TRRBTState();
        engine.setRandomSeed(g + 1);
        const chooser = splitmix ? new SplitMix64(g + 1) : null;
        let played = 0;
        engine.stepToWaitChoiceOrResult();
        while (engine.state.choiceWait && (cap === 0 || played < cap)) {
            const n = engine.state.choices.length;
            const index = splitmix ? chooser.below(n) : Math.floor(Math.random() * n);
            counts.push(n);
            engine.clearChoiceWait(true, index);
            played += 1;
            engine.stepToWaitChoiceOrResult();
        }
        lengths.push(played);
        const end = engine.state.gameResult === null ? 'cap' : engine.state.gameResult.result;
        results[end] = (results[end] || 0) + 1;
    }
}

// The same games once before the timing: V8 compiles the hot code while they run, as the
// studio's kernel is compiled (or loaded) before its timing.
play([], {}, []);
const lengths = [];
const results = {};
const counts = [];  // each draw's n, to time the same draws alone afterwards
const start = process.hrtime.bigint();
play(lengths, results, counts);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;

let drawSeconds = 0;
if (splitmix) {
    let sink = 0;
    const again = process.hrtime.bigint();
    for (let g = 0, at = 0; g < games; g += 1) {
        const chooser = new SplitMix64(g + 1);
        for (let i = 0; i < lengths[g]; i += 1, at += 1) {
            sink += chooser.below(counts[at]);
        }
    }
    drawSeconds = Number(process.hrtime.bigint() - again) / 1e9;
    if (sink < 0) {
        throw new Error('unreachable');  // keeps the draws from being optimised away
    }
}
const turns = lengths.reduce((a, b) => a + b, 0);
process.stdout.write(JSON.stringify({ games, turns, seconds, draw_seconds: drawSeconds, lengths, results }) + '\n');
