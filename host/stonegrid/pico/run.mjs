// The emulated Raspberry Pi Pico: stock MicroPython (rp2 port) on rp2040js, with the host-side
// fixes that rp2040js 1.4.1 needs (host/stonegrid/sim/README.md, "The emulated Pico").
//
//   node run.mjs --bootrom B1.bin --uf2 FW.uf2 --flash FLASH.bin --profile board.json
//
// stdin/stdout carry messages: one type byte, a 4-byte little-endian length, the payload.
//   in:  S <bytes>  serial bytes from the USB host     P "<gpio> <ms>"  hold a button pin
//        active for <ms> of emulated time, from the start of a pass of the firmware's reads
//        N "<gpio> <ms> <ns>"  the same at emulated time <ns> (now if that has passed),
//        wherever the firmware is then: a finger's own time, for the latency bench
//   out: S <bytes>  serial bytes from the board        F <bytes>  one WS2812 frame, wire order
//        U ""       USB serial is up
//        T "<what> <ns>"  when, in emulated ns: "down <gpio>" / "up <gpio>" a button pin
//                   changed, "frame" the WS2812 frame that follows ended (its last bit)
// Exit status 100: the chip asked for a reboot (watchdog / machine.reset()); the host starts
// a fresh emulator on the same flash file.
import * as fs from 'fs';
import { RP2040, USBCDC } from 'rp2040js';

const EXIT_RESET = 100;
const FLASH_BYTES = 2 * 1024 * 1024; // a Pico's W25Q16
const XIP_BASE = 0x10000000;
const BKPT_ERASE = 0xbe01; // BKPT #1 / #2 patched over the ROM's flash routines
const BKPT_PROGRAM = 0xbe02;
const SLICE = 20000; // instructions between looks at the host's event loop
const MAX_LAG_NS = 50e6; // emulated time catches up at most this much of real time
const LATCH_NS = 50000; // a WS2812 low this long ends a frame

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const key of ['bootrom', 'uf2', 'flash', 'profile']) {
    if (!out[key]) throw new Error(`missing --${key}`);
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const profile = JSON.parse(fs.readFileSync(args.profile, 'utf8'));
const mcu = new RP2040();
// rp2040js logs unimplemented registers (the flash's QSPI pads, ...) to stdout, which is ours
const quiet = () => {};
mcu.logger = { debug: quiet, info: quiet, warn: quiet,
  error: (who, text) => process.stderr.write(`pico: ${who}: ${text}\n`) };
// its SIO warns (console.warn) of the inter-core FIFO (0x50, 0x58), read once at boot
const harmless = /^Read from invalid SIO address: (50|58)$/;
console.warn = (text) => harmless.test(text) || process.stderr.write(`pico: ${text}\n`);

// --- messages to the host
function send(type, payload) {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length, 1);
  process.stdout.write(Buffer.concat([head, Buffer.from(payload)]));
}

// --- boot ROM, with its flash erase / program entry points trapped
const rom = new Uint8Array(fs.readFileSync(args.bootrom));
const rom16 = new Uint16Array(rom.buffer, rom.byteOffset, rom.length / 2);
function romFunction(code) {
  // the ROM's function table: pairs of (two-letter code, address), from the pointer at 0x14
  for (let p = rom16[0x14 / 2] / 2; rom16[p]; p += 2) {
    if (rom16[p] === (code.charCodeAt(0) | (code.charCodeAt(1) << 8))) return rom16[p + 1] & ~1;
  }
  throw new Error(`boot ROM has no function ${code}`);
}
const eraseAt = romFunction('RE');
const programAt = romFunction('RP');
rom16[eraseAt / 2] = BKPT_ERASE;
rom16[programAt / 2] = BKPT_PROGRAM;
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));

// --- flash: the saved image (files survive), then the firmware from the UF2 over it
const flashFd = openFlash(args.flash);
function openFlash(path) {
  if (!fs.existsSync(path)) fs.writeFileSync(path, Buffer.alloc(FLASH_BYTES, 0xff));
  const fd = fs.openSync(path, 'r+');
  fs.readSync(fd, mcu.flash, 0, FLASH_BYTES, 0);
  return fd;
}
function loadUF2(path) {
  const uf2 = fs.readFileSync(path);
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const block = new DataView(uf2.buffer, uf2.byteOffset + off, 512);
    if (block.getUint32(0, true) !== 0x0a324655 || block.getUint32(4, true) !== 0x9e5d5157) continue;
    const target = block.getUint32(12, true) - XIP_BASE;
    const size = block.getUint32(16, true);
    mcu.flash.set(uf2.subarray(off + 32, off + 32 + size), target);
  }
}
loadUF2(args.uf2);
fs.writeSync(flashFd, mcu.flash, 0, FLASH_BYTES, 0);

function saveFlash(offset, count) {
  // written through to the file at once: a power cut (SIGKILL) loses nothing done
  fs.writeSync(flashFd, mcu.flash, offset, count, offset);
}

// The ROM routines, done here and returned from: erase(addr, count, block_size, block_cmd),
// program(addr, data, count); addresses are offsets into the flash.
mcu.onBreak = (code) => {
  const core = mcu.core;
  const r = core.registers;
  if (code === (BKPT_ERASE & 0xff)) {
    const [addr, count] = [r[0] % FLASH_BYTES, r[1]];
    mcu.flash.fill(0xff, addr, addr + count);
    saveFlash(addr, count);
  } else if (code === (BKPT_PROGRAM & 0xff)) {
    const [addr, data, count] = [r[0] % FLASH_BYTES, r[1], r[2]];
    for (let i = 0; i < count; i++) mcu.flash[addr + i] &= mcu.readUint8(data + i);
    saveFlash(addr, count);
  } else {
    process.stderr.write(`pico: breakpoint ${code} at ${core.PC.toString(16)}\n`);
    return;
  }
  core.PC = core.LR & ~1;
};

// --- reboot: the watchdog (machine.reset()) ends this emulator; the host starts a new one.
// rp2040js's watchdog counter does not run, so an enabled watchdog fires here after its LOAD
// (in us; the RP2040 counts down twice a tick, erratum E1) unless it is loaded again.
const watchdog = Object.values(mcu.peripherals).find((p) => p.name === 'WATCHDOG_BASE');
const WATCHDOG_CTRL = 0x00;
const WATCHDOG_LOAD = 0x04;
const WATCHDOG_ENABLE = 1 << 30;
let watchdogLoad = 0;
const watchdogAlarm = mcu.clock.createAlarm(() => watchdog.onWatchdogTrigger());
const watchdogWrite = watchdog.writeUint32.bind(watchdog);
watchdog.writeUint32 = (offset, value) => {
  watchdogWrite(offset, value);
  if (offset === WATCHDOG_LOAD) watchdogLoad = value & 0xffffff;
  if (offset === WATCHDOG_LOAD || (offset === WATCHDOG_CTRL && value & WATCHDOG_ENABLE)) {
    if (watchdog.enable) watchdogAlarm.schedule((watchdogLoad / 2 + 1) * 1000);
  }
  if (offset === WATCHDOG_CTRL && !(value & WATCHDOG_ENABLE)) watchdogAlarm.cancel();
};
watchdog.onWatchdogTrigger = () => {
  running = false;
  fs.closeSync(flashFd);
  process.stdout.write(Buffer.alloc(0), () => process.exit(EXIT_RESET));
};

// --- USB CDC: OUT transfers wait for data instead of completing empty at once
const cdc = new USBCDC(mcu.usbCtrl);
const toBoard = [];
let heldRead = null; // the OUT transfer the chip armed while we had nothing to send
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  heldRead = size;
  feedBoard();
};
function feedBoard() {
  if (heldRead === null || !toBoard.length) return;
  const chunk = Uint8Array.from(toBoard.splice(0, heldRead));
  heldRead = null;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, chunk);
  wake();
}
cdc.onDeviceConnected = () => send('U', []);
cdc.onSerialData = (bytes) => send('S', bytes);

// --- buttons: inputs driven at their idle level (rp2040js has no pull-ups); active low
const activeLow = profile.active_low !== false;
for (const gpio of Object.values(profile.buttons)) mcu.gpio[gpio].setInputValue(activeLow);
// Presses one after another, like fingers: held for <ms>, then all up for RELEASE_MS, in
// emulated time.  The firmware reads the pins in passes (one read a button, close together,
// then its main loop goes on), so a level changes only as a pass starts, and lasts until a
// pass starts at or after its time and after at least one whole pass has seen it: a pass
// never sees a press half changed, and the debounce sees each press and each release
// however slow the main loop is.  (Changed between two reads of one pass, a release could
// fall after the read of its button in one pass and end before it in the next: lost.)
const RELEASE_MS = 60;
const PASS_GAP_NS = 2e6; // reads closer together than this are one pass
const SIO_GPIO_IN = 0x004;
const presses = [];
let pressing = null; // the pin held now
let phase = null; // {due, passes}: the level set now, and the passes that have begun since
let lastRead = -PASS_GAP_NS;
const sioRead = mcu.sio.readUint32.bind(mcu.sio);
mcu.sio.readUint32 = (offset) => {
  if (offset === SIO_GPIO_IN) {
    const now = mcu.clock.nanos;
    if (now - lastRead >= PASS_GAP_NS) passStarts(now);
    lastRead = now;
  }
  return sioRead(offset);
};
function passStarts(now) {
  if (phase && (++phase.passes < 3 || now < phase.due)) return; // the 1st, one whole, this
  if (pressing !== null) {
    mcu.gpio[pressing].setInputValue(activeLow);
    send('T', `up ${pressing} ${now}`);
    pressing = null;
    phase = { due: now + RELEASE_MS * 1e6, passes: 1 };
  } else if (presses.length) {
    const [gpio, ms] = presses.shift();
    mcu.gpio[gpio].setInputValue(!activeLow);
    send('T', `down ${gpio} ${now}`);
    pressing = gpio;
    phase = { due: now + ms * 1e6, passes: 1 };
  }
}

// A press at a given emulated time, released <ms> later: the firmware meets it wherever it is.
let timed = null; // [gpio, ms] of the press due, then held
const pressTimed = mcu.clock.createAlarm(() => {
  const [gpio, ms] = timed;
  mcu.gpio[gpio].setInputValue(!activeLow);
  send('T', `down ${gpio} ${mcu.clock.nanos}`);
  releaseTimed.schedule(ms * 1e6);
});
const releaseTimed = mcu.clock.createAlarm(() => {
  mcu.gpio[timed[0]].setInputValue(activeLow);
  send('T', `up ${timed[0]} ${mcu.clock.nanos}`);
});
function pressAt(gpio, ms, at) {
  timed = [gpio, ms];
  pressTimed.schedule(Math.max(0, at - mcu.clock.nanos));
  wake(); // a sleeping chip may have no alarm of its own before then
}

// --- WS2812: bits by the length of each high pulse (0: ~0.4 us, 1: ~0.8 us), in emulated time
const frameBytes = profile.width * profile.height * 3;
const frame = new Uint8Array(frameBytes);
let bits = 0;
let rose = 0;
let fell = 0;
mcu.gpio[profile.data_pin].addListener((state) => {
  const now = mcu.clock.nanos;
  if (state === 1) { // GPIOPinState.High
    if (now - fell > LATCH_NS) bits = 0; // a latch gap: a new frame starts
    rose = now;
    return;
  }
  fell = now;
  if (bits >= frameBytes * 8) return;
  const byte = bits >> 3;
  frame[byte] = (frame[byte] << 1) | (now - rose > 580 ? 1 : 0);
  if (++bits === frameBytes * 8) {
    send('T', `frame ${now}`);
    send('F', frame);
  }
});

// --- messages from the host
let inbox = Buffer.alloc(0);
process.stdin.on('data', (data) => {
  inbox = Buffer.concat([inbox, data]);
  while (inbox.length >= 5 && inbox.length >= 5 + inbox.readUInt32LE(1)) {
    const type = String.fromCharCode(inbox[0]);
    const payload = inbox.subarray(5, 5 + inbox.readUInt32LE(1));
    inbox = inbox.subarray(5 + payload.length);
    if (type === 'S') {
      toBoard.push(...payload);
      feedBoard();
    } else if (type === 'P') {
      const [gpio, ms] = payload.toString().split(' ').map(Number);
      presses.push([gpio, ms]); // taken at the start of a pass
    } else if (type === 'N') {
      const [gpio, ms, at] = payload.toString().split(' ').map(Number);
      pressAt(gpio, ms, at);
    }
  }
});
process.stdin.on('end', () => process.exit(0)); // the host is gone: power off

// --- the run loop: flat out while the chip works; while it sleeps (WFI), emulated time
// follows real time and the host core is free
let running = true;
let wakeTimer = null;
let anchorReal = 0;
let anchorEmu = 0;
function realNs() {
  return Number(process.hrtime.bigint());
}
function wake() {
  if (wakeTimer !== null) {
    clearTimeout(wakeTimer);
    wakeTimer = null;
    setImmediate(run);
  }
}
function run() {
  wakeTimer = null;
  const { core, clock } = mcu;
  for (let i = 0; i < SLICE && running; i++) {
    if (!core.waiting) {
      clock.tick(core.executeInstruction() * 8); // 8 ns a cycle at 125 MHz
      continue;
    }
    const now = realNs();
    const due = clock.nanosToNextAlarm;
    const early = clock.nanos + due - (anchorEmu + (now - anchorReal));
    if (due && early <= 0) {
      clock.tick(due);
      continue;
    }
    // sleep until the next alarm is due in real time, or until the host sends something
    wakeTimer = setTimeout(run, due ? Math.max(1, early / 1e6) : 50);
    return;
  }
  // busy all slice: the chip fell behind real time; it may catch up MAX_LAG_NS of it at most
  const now = realNs();
  if (clock.nanos < anchorEmu + (now - anchorReal) - MAX_LAG_NS) {
    anchorReal = now;
    anchorEmu = clock.nanos + MAX_LAG_NS;
  }
  if (running) setImmediate(run);
}
anchorReal = realNs();
mcu.core.PC = 0x10000000;
run();
