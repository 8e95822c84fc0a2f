// Random playouts on trrbt's own engine.js under node, for bench/btree.py (issue 32).
//
//     node bench/trrbt_playouts.js ENGINE_JS GAME_JSON GAMES CAP
//
// ENGINE_JS is the reference's web/engine.js (not shipped with the studio: its path is given);
// only its engine classes are evaluated, the web page's class after them needs a browser.
// GAME_JSON is an expanded corpus game ({"name", "tree"}). Each game runs from a fresh state to
// the end or CAP choices (0: no cap), every choice uniform (Math.random: the reference's random
// players), through the stepper's stepToWaitChoiceOrResult as the reference's scripts do.
// Prints {"games", "turns", "seconds"} as JSON; the games' parsing is not timed.
'use strict';

const fs = require('fs');

const [enginePath, gamePath, gamesArg, capArg] = process.argv.slice(2);
let source = fs.readFileSync(enginePath, 'utf8');
const web = source.indexOf('class TRRBTWebEngine');
if (web >= 0) {
    source = source.slice(0, web);
}

// The helpers engine.js takes from the page's common.js, written here for node.
const helpers = `
var deepcopyobj = typeof deepcopyobj !== 'undefined' ? deepcopyobj
    : (obj) => (obj === null || obj === undefined) ? obj : JSON.parse(JSON.stringify(obj));
var bind0 = typeof bind0 !== 'undefined' ? bind0 : (obj, name) => obj[name].bind(obj);
var samepropsobj = typeof samepropsobj !== 'undefined' ? samepropsobj : (a, b) => {
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
};
`;
const make = new Function(helpers + source +
    '\nreturn { TRRBTState, TRRBTStepper, LIMIT: typeof ENG_LOOP_CHECK_MAX !== "undefined" ? ENG_LOOP_CHECK_MAX : 100000 };');
const { TRRBTState, TRRBTStepper, LIMIT } = make();

const game = JSON.parse(fs.readFileSync(gamePath, 'utf8'));
const tree = game.tree;
const games = parseInt(gamesArg, 10);
const cap = parseInt(capArg, 10);
const stepper = new TRRBTStepper();

let turns = 0;
const start = process.hrtime.bigint();
for (let g = 0; g < games; g += 1) {
    const state = new TRRBTState();
    let played = 0;
    stepper.stepToWaitChoiceOrResult(tree, state, LIMIT);
    while (state.choiceWait && (cap === 0 || played < cap)) {
        const index = Math.floor(Math.random() * state.choices.length);
        stepper.clearChoiceWait(tree, state, true, index);
        played += 1;
        stepper.stepToWaitChoiceOrResult(tree, state, LIMIT);
    }
    turns += played;
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({ games, turns, seconds }) + '\n');
