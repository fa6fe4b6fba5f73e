// The page is the board: it draws the frames that firmware/hal/web.py hands it, queues the
// button presses and serial command lines the firmware polls for, and shows the serial log.
// Every decision about the games is made by the firmware in MicroPython; nothing here knows
// a rule.
import { loadMicroPython } from "./micropython/micropython.mjs";
import { SHOWN, OFF } from "./led.js";

const LONG_MS = 600; // as firmware/hal: a press held this long is a long press
const SIZE = 16;
const HISTORY = 400; // frames kept for the tests (window.stonegrid.frames)
const LINES = 5000; // serial lines kept for the tests (window.stonegrid.lines)
const RECORDS = new Set(["game", "act", "undo", "end"]); // lines `stonegrid logs` saves
const JOURNAL = "journal.jsonl"; // the app's game in progress (firmware/app/journal.py)
// Kept in localStorage, so that a reload is a power cut: the journal brings the game back,
// and the record lines sent so far stay downloadable (the journal holds secrets they do not).
const SAVED = { journal: "stonegrid.journal", records: "stonegrid.records" };
const KEYS = {
  ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
  k: "up", j: "down", h: "left", l: "right", o: "ok", b: "back",
  Enter: "ok", " ": "ok", Backspace: "back", Escape: "back",
};

const canvas = document.getElementById("matrix");
const logPanel = document.getElementById("log");
const status = document.getElementById("status");
let files = null; // {path on the board: text}, from /firmware.json
let mp = null; // the running MicroPython
let generation = 0; // one per power-up: output of an earlier one is ignored
let frame = "00".repeat(SIZE * SIZE * 3); // hex RGB of the frame on the LEDs
const frames = []; // [ms, hex] of the latest frames shown
const serialLines = []; // every line the firmware wrote
let records = []; // the current game's record lines
let events = []; // button events waiting for hal.poll()
let typed = []; // command text waiting for the serial link
const held = new Set();

function note(text, kind) {
  const line = document.createElement("div");
  line.textContent = text;
  if (kind) line.className = kind;
  const atEnd = logPanel.scrollTop + logPanel.clientHeight >= logPanel.scrollHeight - 4;
  logPanel.append(line);
  while (logPanel.childElementCount > 2000) logPanel.firstElementChild.remove();
  if (atEnd) logPanel.scrollTop = logPanel.scrollHeight;
}

function draw(hex) {
  const ctx = canvas.getContext("2d");
  const cell = canvas.width / SIZE;
  ctx.fillStyle = "#000000";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (let i = 0; i < SIZE * SIZE; i++) {
    const x = i % SIZE, y = Math.floor(i / SIZE);
    const rgb = hex.substr(i * 6, 6);
    const [r, g, b] = [0, 2, 4].map((k) => SHOWN[parseInt(rgb.substr(k, 2), 16)]);
    ctx.fillStyle = rgb === "000000" ? OFF : `rgb(${r}, ${g}, ${b})`; // as an LED looks
    ctx.beginPath();
    ctx.arc((x + 0.5) * cell, (y + 0.5) * cell, cell * 0.4, 0, 2 * Math.PI);
    ctx.fill();
  }
}

function serialOut(text, power) {
  if (power !== generation) return;
  serialLines.push(text);
  if (serialLines.length > LINES) serialLines.shift();
  let rec = null;
  try { rec = JSON.parse(text); } catch { /* not a JSON line: shown as it is */ }
  if (rec && RECORDS.has(rec.t)) {
    if (rec.t === "game") records = [];
    records.push(text);
    save(); // the app journals an action before it sends its record
  }
  note(text, rec && rec.t === "error" ? "error" : "");
}

function serialErr(text, power) {
  if (power !== generation) return;
  note(text, "error");
  // As on the device, an error in the app restarts it; the journal brings the game back.
  if (text.startsWith("Task exception")) setTimeout(boot, 1000);
}

// What firmware/hal/web.py calls.  The board of an earlier power-up goes dark and deaf: its
// MicroPython's tasks cannot be stopped from outside (a JavaScript error thrown into them
// escapes to the page), so whatever of it still runs sees no buttons and no serial input.
function boardFor(power) {
  const on = () => power === generation;
  return {
    show(hex) {
      if (!on()) return;
      frame = hex;
      frames.push([performance.now(), hex]);
      if (frames.length > HISTORY) frames.shift();
      draw(hex);
    },
    poll() { return on() ? events.shift() ?? null : null; },
    held(name) { return on() && held.has(name); },
    serialRead() { return on() ? typed.shift() ?? null : null; },
  };
}

// The journal is copied out of the running MicroPython whenever a record line comes, before a
// power-up and when the page goes away (a secret Rhombus bid is journalled with no line).
function save() {
  if (!mp) return;
  try {
    localStorage.setItem(SAVED.records, JSON.stringify(records));
    localStorage.setItem(SAVED.journal, mp.FS.readFile("/" + JOURNAL, { encoding: "utf8" }));
  } catch { /* no journal yet, or no storage: the game lasts as long as the page */ }
}

function saved(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

async function powerUp() {
  save();
  const journal = saved(SAVED.journal);
  if (!records.length) records = JSON.parse(saved(SAVED.records) || "[]");
  const power = ++generation;
  events = [];
  typed = [];
  status.textContent = "starting MicroPython…";
  if (!files) {
    const reply = await fetch("firmware.json");
    if (!reply.ok) throw new Error(reply.status + " " + (await reply.text()).replace(/<[^>]*>/g, " ").trim());
    files = await reply.json();
  }
  globalThis.stonegridBoard = boardFor(power);
  // the heap of the board the page stands for (hardware/web.json: a Raspberry Pi Pico's, as
  // `stonegrid sim` says too); this 32-bit port collects only between calls, so the memory
  // guards are the virtual board's
  const heapKb = JSON.parse(files["board.json"]).heap_kb;
  mp = await loadMicroPython({
    url: "micropython/micropython.wasm", heapsize: heapKb * 1024,
    stdout: (text) => serialOut(text, power), stderr: (text) => serialErr(text, power),
  });
  for (const [path, text] of Object.entries(files)) {
    const dir = path.split("/").slice(0, -1).join("/");
    if (dir) mp.FS.mkdirTree("/" + dir);
    mp.FS.writeFile("/" + path, text);
  }
  if (journal !== null) mp.FS.writeFile("/" + JOURNAL, journal);
  note("-- power on --", "note");
  mp.runPython(files["main.py"]);
  status.textContent = "running: the firmware in MicroPython (WebAssembly), heap " + heapKb +
    " KB, a Raspberry Pi Pico's";
  window.stonegrid.running = power;
}

function press(name, kind) {
  events.push(name + " " + kind);
}

function send(line) {
  note("> " + line, "sent");
  typed.push(line + "\n");
}

function download() {
  if (!records.length) {
    note("no game has started yet: nothing to download", "error");
    return;
  }
  const game = JSON.parse(records[0]).game || "unknown";
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([records.join("\n") + "\n"],
                                           { type: "application/x-ndjson" }));
  link.download = stamp + "-" + game + ".jsonl";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000); // some browsers read it late
}

// A log is turned into the board's replay commands by the firmware's own Python
// (shared_rules/remote.py, as `stonegrid replay --device` does), then sent on the link.
// The modules it takes are forgotten again, as the app forgets what it no longer needs.
async function loadLog(file) {
  if (!mp) {
    note(file.name + ": MicroPython is not running yet", "error");
    return;
  }
  mp.FS.writeFile("/loaded.jsonl", await file.text());
  let commands;
  try {
    mp.runPython(
      "def _replay_commands():\n" +
      "    import json\n" +
      "    from app.core import forget\n" +
      "    from shared_rules.remote import log_commands\n" +
      "    try:\n" +
      "        with open('loaded.jsonl') as f:\n" +
      "            return json.dumps(log_commands(f))\n" +
      "    finally:\n" +
      "        forget('shared_rules', 'remote')\n" +
      "        forget('shared_rules', 'reader')\n" +
      "_commands = _replay_commands()");
    commands = mp.globals.get("_commands");
  } catch (e) {
    note(file.name + ": " + e.message.trim().split("\n").pop(), "error");
    return;
  } finally {
    mp.runPython("_commands = _replay_commands = None");
  }
  note("-- replaying " + file.name + ": left/right step, up/down to either end, OK leaves --",
       "note");
  for (const cmd of JSON.parse(commands)) send(JSON.stringify(cmd));
}

function buttonFromKey(e) {
  const name = KEYS[e.key] || KEYS[e.key.toLowerCase()];
  const long = e.shiftKey && (e.key.startsWith("Arrow") || /^[A-Z]$/.test(e.key));
  return name ? [name, long ? "long" : "press"] : null;
}

// A button held LONG_MS is a long press at that moment, as on the board (firmware/hal
// Buttons); released sooner it is a press, or a long one with Shift.
for (const button of document.querySelectorAll("[data-button]")) {
  const name = button.dataset.button;
  let longTimer = null;
  const release = () => {
    clearTimeout(longTimer);
    longTimer = null;
    held.delete(name);
  };
  button.addEventListener("pointerdown", () => {
    held.add(name);
    longTimer = setTimeout(() => { release(); press(name, "long"); }, LONG_MS);
  });
  button.addEventListener("pointerup", (e) => {
    if (longTimer === null) return; // already sent as a long press
    release();
    press(name, e.shiftKey ? "long" : "press");
  });
  button.addEventListener("pointerleave", release);
}

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.ctrlKey || e.altKey || e.metaKey) return;
  const event = buttonFromKey(e);
  if (!event) return;
  e.preventDefault();
  if (!e.repeat) press(event[0], event[1]);
});

document.getElementById("command").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("line");
  if (input.value.trim()) send(input.value);
  input.value = "";
});
document.getElementById("download").addEventListener("click", download);
document.getElementById("restart").addEventListener("click", boot);
document.getElementById("load").addEventListener("change", (e) => {
  if (e.target.files.length) loadLog(e.target.files[0]);
  e.target.value = "";
});

// For tests and the curious: what the LEDs show, as hex RGB after the brightness cap.
window.stonegrid = {
  frame: () => frame,
  frames: (since = 0) => frames.filter(([t]) => t > since),
  now: () => performance.now(),
  lines: () => serialLines.slice(),
  records: () => records.slice(),
  send,
};

window.addEventListener("pagehide", save);

// Every power-up goes through here, one at a time: a second one waits for the first, so
// that each MicroPython finds its own board object.
let booting = Promise.resolve();
function boot() {
  booting = booting.then(powerUp).catch((e) => {
    status.textContent = "MicroPython did not start: " + e.message;
    note("MicroPython did not start: " + e.message, "error");
  });
  return booting;
}

draw(frame);
boot();
