// Fairy-Stockfish's WebAssembly build (npm package fairy-stockfish-nnue.wasm, GPL-3.0, by Fabian
// Fichter and the Stockfish authors) as a UCI engine on standard input and output, for the
// tests of `qijudge match`. `npm ci` in this folder installs the engine; this file only passes
// lines to it.
//
//   node engine.js      (then: uci, setoption name UCI_Variant value xiangqi, isready, ...)

// Node's global fetch makes the Emscripten loader fetch the .wasm by URL; read it from disk.
delete globalThis.fetch;
const path = require("path");
const readline = require("readline");
const dir = path.join(__dirname, "node_modules", "fairy-stockfish-nnue.wasm");
const Stockfish = require(path.join(dir, "stockfish.js"));

Stockfish({ locateFile: (file) => path.join(dir, file) }).then(async (engine) => {
  for await (const line of readline.createInterface({ input: process.stdin })) {
    if (line.trim() === "quit") break;
    engine.postMessage(line);
  }
  engine.postMessage("quit");
  process.exit(0);
});
